package io.gpuaas.local.kueue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.gpuaas.events.Json;
import io.gpuaas.local.model.JsonPatch;
import io.gpuaas.local.model.Nested;
import io.gpuaas.testing.k8s.GpuaasCrd;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * ClusterQueue and LocalQueue status as Kueue writes it: workload counts, flavorsReservation/flavorsUsage and the
 * Active condition. Written only when it changed, so watchers see real transitions only.
 */
final class QueueStatusWriter {

    private final KubernetesClient client;

    QueueStatusWriter(KubernetesClient client) {
        this.client = client;
    }

    void write(QueueState state) {
        for (GenericKubernetesResource queue : client.genericKubernetesResources(GpuaasCrd.CLUSTER_QUEUE.context()).list().getItems()) {
            QueueQuota quota = state.queues().get(queue.getMetadata().getName());
            if (quota != null) {
                write(queue, GpuaasCrd.CLUSTER_QUEUE, clusterQueueStatus(queue, quota, state));
            }
        }
        for (GenericKubernetesResource queue : client.genericKubernetesResources(GpuaasCrd.LOCAL_QUEUE.context()).inAnyNamespace().list().getItems()) {
            write(queue, GpuaasCrd.LOCAL_QUEUE, localQueueStatus(queue, state));
        }
    }

    private Map<String, Object> clusterQueueStatus(GenericKubernetesResource queue, QueueQuota quota, QueueState state) {
        QueueState.Counts counts = state.clusterQueue(quota.name());
        List<Map<String, Object>> flavors = new ArrayList<>();
        Map<String, List<Map<String, Object>>> byFlavor = new LinkedHashMap<>();
        for (FlavorQuota q : quota.quotas()) {
            long used = state.model().used(quota.name(), q.flavor(), q.resource());
            byFlavor.computeIfAbsent(q.flavor(), f -> new ArrayList<>()).add(Map.of("name", q.resource(),
                    "total", Long.toString(used), "borrowed", Long.toString(Math.max(0, used - q.nominal()))));
        }
        byFlavor.forEach((flavor, resources) -> flavors.add(Map.of("name", flavor, "resources", resources)));
        Map<String, Object> status = counts(counts, flavors);
        status.put("conditions", Conditions.set(conditions(queue), "Active", !quota.stopped(),
                quota.stopped() ? "Stopped" : "Ready",
                quota.stopped() ? "The ClusterQueue is stopped" : "Can admit new workloads",
                queue.getMetadata().getGeneration()));
        return status;
    }

    private Map<String, Object> localQueueStatus(GenericKubernetesResource queue, QueueState state) {
        QueueState.Counts counts = state.localQueue(queue.getMetadata().getNamespace(), queue.getMetadata().getName());
        List<Map<String, Object>> flavors = new ArrayList<>();
        counts.usage.forEach((flavor, resources) -> {
            List<Map<String, Object>> list = new ArrayList<>();
            resources.forEach((resource, units) -> list.add(Map.of("name", resource, "total", Long.toString(units))));
            flavors.add(Map.of("name", flavor, "resources", list));
        });
        String clusterQueue = Nested.string(queue.getAdditionalProperties(), "spec", "clusterQueue").orElse("");
        boolean active = state.queues().containsKey(clusterQueue);
        Map<String, Object> status = counts(counts, flavors);
        status.put("conditions", Conditions.set(conditions(queue), "Active", active,
                active ? "Ready" : "ClusterQueueDoesNotExist",
                active ? "Can submit new workloads to localQueue" : "Can't submit new workloads to clusterQueue",
                queue.getMetadata().getGeneration()));
        return status;
    }

    private static Map<String, Object> counts(QueueState.Counts counts, List<Map<String, Object>> flavors) {
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("pendingWorkloads", counts.pending);
        status.put("reservingWorkloads", counts.admitted);
        status.put("admittedWorkloads", counts.admitted);
        status.put("flavorsReservation", flavors);
        status.put("flavorsUsage", flavors);
        return status;
    }

    private static List<Map<String, Object>> conditions(GenericKubernetesResource queue) {
        List<Map<String, Object>> conditions = new ArrayList<>();
        Nested.list(queue.getAdditionalProperties(), "status", "conditions").forEach(c -> conditions.add(Nested.map(c)));
        return conditions;
    }

    private void write(GenericKubernetesResource queue, GpuaasCrd crd, Map<String, Object> status) {
        Map<String, Object> current = Nested.map(queue.getAdditionalProperties(), "status");
        // Compared as JSON trees: field order differs between what the server returns and what is built here.
        if (Json.mapper().valueToTree(current).equals(Json.mapper().valueToTree(status))) {
            return;
        }
        try {
            var resource = client.genericKubernetesResources(crd.context());
            var named = crd.namespaced()
                    ? resource.inNamespace(queue.getMetadata().getNamespace()).withName(queue.getMetadata().getName())
                    : resource.withName(queue.getMetadata().getName());
            named.subresource("status").patch(JsonPatch.CONTEXT, JsonPatch.set(client, "/status", status));
        } catch (KubernetesClientException e) {
            // The queue was deleted between list and write (quota-projector tears queues down); next pass settles it.
        }
    }
}
