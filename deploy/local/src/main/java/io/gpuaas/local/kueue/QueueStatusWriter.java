package io.gpuaas.local.kueue;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.gpuaas.kube.kueue.v1beta2.ClusterQueue;
import io.gpuaas.kube.kueue.v1beta2.ClusterQueueStatus;
import io.gpuaas.kube.kueue.v1beta2.LocalQueue;
import io.gpuaas.kube.kueue.v1beta2.LocalQueueStatus;
import io.gpuaas.kube.kueue.v1beta2.clusterqueuestatus.FlavorsReservation;
import io.gpuaas.kube.kueue.v1beta2.clusterqueuestatus.FlavorsUsage;
import io.gpuaas.kube.kueue.v1beta2.clusterqueuestatus.flavorsreservation.Resources;
import io.gpuaas.local.model.JsonPatch;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * ClusterQueue and LocalQueue status as Kueue writes it: workload counts, flavorsReservation/flavorsUsage and the
 * Active condition. Written only when it changed, so watchers see real transitions only.
 */
final class QueueStatusWriter {

    /** Usage of one resource in one flavor; {@code borrowed} only for ClusterQueues. */
    private record ResourceTotal(String name, long total, Long borrowed) {}

    private final KubernetesClient client;

    QueueStatusWriter(KubernetesClient client) {
        this.client = client;
    }

    void write(QueueState state) {
        for (ClusterQueue queue : client.resources(ClusterQueue.class).list().getItems()) {
            QueueQuota quota = state.queues().get(queue.getMetadata().getName());
            if (quota != null) {
                write(
                        queue.getStatus(),
                        clusterQueueStatus(queue, quota, state),
                        client.resources(ClusterQueue.class)
                                .withName(queue.getMetadata().getName()));
            }
        }
        for (LocalQueue queue :
                client.resources(LocalQueue.class).inAnyNamespace().list().getItems()) {
            write(
                    queue.getStatus(),
                    localQueueStatus(queue, state),
                    client.resources(LocalQueue.class)
                            .inNamespace(queue.getMetadata().getNamespace())
                            .withName(queue.getMetadata().getName()));
        }
    }

    private ClusterQueueStatus clusterQueueStatus(ClusterQueue queue, QueueQuota quota, QueueState state) {
        QueueState.Counts counts = state.clusterQueue(quota.name());
        Map<String, List<ResourceTotal>> byFlavor = new LinkedHashMap<>();
        for (FlavorQuota q : quota.quotas()) {
            long used = state.model().used(quota.name(), q.flavor(), q.resource());
            byFlavor.computeIfAbsent(q.flavor(), f -> new ArrayList<>())
                    .add(new ResourceTotal(q.resource(), used, Math.max(0, used - q.nominal())));
        }
        ClusterQueueStatus status = new ClusterQueueStatus();
        status.setPendingWorkloads(counts.pending);
        status.setReservingWorkloads(counts.admitted);
        status.setAdmittedWorkloads(counts.admitted);
        status.setFlavorsReservation(flavors(byFlavor, QueueStatusWriter::clusterReservation));
        status.setFlavorsUsage(flavors(byFlavor, QueueStatusWriter::clusterUsage));
        List<Condition> current =
                queue.getStatus() == null ? null : queue.getStatus().getConditions();
        status.setConditions(Conditions.set(
                Conditions.of(current),
                "Active",
                !quota.stopped(),
                quota.stopped() ? "Stopped" : "Ready",
                quota.stopped() ? "The ClusterQueue is stopped" : "Can admit new workloads",
                queue.getMetadata().getGeneration()));
        return status;
    }

    private LocalQueueStatus localQueueStatus(LocalQueue queue, QueueState state) {
        QueueState.Counts counts = state.localQueue(
                queue.getMetadata().getNamespace(), queue.getMetadata().getName());
        Map<String, List<ResourceTotal>> byFlavor = new LinkedHashMap<>();
        counts.usage.forEach((flavor, resources) ->
                resources.forEach((resource, units) -> byFlavor.computeIfAbsent(flavor, f -> new ArrayList<>())
                        .add(new ResourceTotal(resource, units, null))));
        String clusterQueue = queue.getSpec() == null
                ? ""
                : Objects.requireNonNullElse(queue.getSpec().getClusterQueue(), "");
        boolean active = state.queues().containsKey(clusterQueue);
        LocalQueueStatus status = new LocalQueueStatus();
        status.setPendingWorkloads(counts.pending);
        status.setReservingWorkloads(counts.admitted);
        status.setAdmittedWorkloads(counts.admitted);
        status.setFlavorsReservation(flavors(byFlavor, QueueStatusWriter::localReservation));
        status.setFlavorsUsage(flavors(byFlavor, QueueStatusWriter::localUsage));
        List<Condition> current =
                queue.getStatus() == null ? null : queue.getStatus().getConditions();
        status.setConditions(Conditions.set(
                Conditions.of(current),
                "Active",
                active,
                active ? "Ready" : "ClusterQueueDoesNotExist",
                active ? "Can submit new workloads to localQueue" : "Can't submit new workloads to clusterQueue",
                queue.getMetadata().getGeneration()));
        return status;
    }

    private static <F> List<F> flavors(
            Map<String, List<ResourceTotal>> byFlavor, BiFunction<String, List<ResourceTotal>, F> flavor) {
        List<F> result = new ArrayList<>();
        byFlavor.forEach((name, resources) -> result.add(flavor.apply(name, resources)));
        return result;
    }

    private static <R> List<R> resources(List<ResourceTotal> totals, Function<ResourceTotal, R> resource) {
        return totals.stream().map(resource).toList();
    }

    // Totals are written as strings, as Kueue serialises resource.Quantity.
    private static IntOrString quantity(String resource, long units) {
        return new IntOrString(ResourceUnits.format(resource, units));
    }

    private static FlavorsReservation clusterReservation(String name, List<ResourceTotal> totals) {
        FlavorsReservation flavor = new FlavorsReservation();
        flavor.setName(name);
        flavor.setResources(resources(totals, t -> {
            Resources resource = new Resources();
            resource.setName(t.name());
            resource.setTotal(quantity(t.name(), t.total()));
            resource.setBorrowed(quantity(t.name(), t.borrowed()));
            return resource;
        }));
        return flavor;
    }

    private static FlavorsUsage clusterUsage(String name, List<ResourceTotal> totals) {
        FlavorsUsage flavor = new FlavorsUsage();
        flavor.setName(name);
        flavor.setResources(resources(totals, t -> {
            var resource = new io.gpuaas.kube.kueue.v1beta2.clusterqueuestatus.flavorsusage.Resources();
            resource.setName(t.name());
            resource.setTotal(quantity(t.name(), t.total()));
            resource.setBorrowed(quantity(t.name(), t.borrowed()));
            return resource;
        }));
        return flavor;
    }

    private static io.gpuaas.kube.kueue.v1beta2.localqueuestatus.FlavorsReservation localReservation(
            String name, List<ResourceTotal> totals) {
        var flavor = new io.gpuaas.kube.kueue.v1beta2.localqueuestatus.FlavorsReservation();
        flavor.setName(name);
        flavor.setResources(resources(totals, t -> {
            var resource = new io.gpuaas.kube.kueue.v1beta2.localqueuestatus.flavorsreservation.Resources();
            resource.setName(t.name());
            resource.setTotal(quantity(t.name(), t.total()));
            return resource;
        }));
        return flavor;
    }

    private static io.gpuaas.kube.kueue.v1beta2.localqueuestatus.FlavorsUsage localUsage(
            String name, List<ResourceTotal> totals) {
        var flavor = new io.gpuaas.kube.kueue.v1beta2.localqueuestatus.FlavorsUsage();
        flavor.setName(name);
        flavor.setResources(resources(totals, t -> {
            var resource = new io.gpuaas.kube.kueue.v1beta2.localqueuestatus.flavorsusage.Resources();
            resource.setName(t.name());
            resource.setTotal(quantity(t.name(), t.total()));
            return resource;
        }));
        return flavor;
    }

    private void write(Object current, Object status, Resource<?> named) {
        var serialization = client.getKubernetesSerialization();
        // Compared as JSON trees: field order differs between what the server returns and what is built here.
        if (current != null
                && serialization
                        .convertValue(current, JsonNode.class)
                        .equals(serialization.convertValue(status, JsonNode.class))) {
            return;
        }
        try {
            named.subresource("status").patch(JsonPatch.CONTEXT, JsonPatch.set(client, "/status", status));
        } catch (KubernetesClientException e) {
            // The queue was deleted between list and write (quota-projector tears queues down); next pass settles it.
        }
    }
}
