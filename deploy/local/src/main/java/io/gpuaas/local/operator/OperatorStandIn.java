package io.gpuaas.local.operator;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.gpuaas.local.model.PodSetDemand;
import io.gpuaas.local.model.WorkloadOwner;
import io.gpuaas.local.model.WorkloadOwner.PodTemplate;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The part of KubeRay and KServe gpuaas depends on: pods that follow the replica counts. A queued owner gets pods
 * only while its Workload is admitted (a suspended RayCluster has none); scaling down deletes the pods named in
 * {@code workersToDelete} first, then the newest. Pods of deleted owners are garbage-collected.
 */
public final class OperatorStandIn {

    private static final Logger LOG = LoggerFactory.getLogger(OperatorStandIn.class);

    private final KubernetesClient client;

    public OperatorStandIn(KubernetesClient client) {
        this.client = client;
    }

    /** One pass: pods of every owner match its replicas; {@code admitted} holds uids of admitted queued owners. */
    public void reconcile(List<WorkloadOwner> owners, Set<String> admitted) {
        List<Pod> pods = client.pods()
                .inAnyNamespace()
                .withLabel(PodNaming.SIMULATED_LABEL, "true")
                .list()
                .getItems();
        for (WorkloadOwner owner : owners) {
            boolean runnable = owner.queueName().isPresent() ? admitted.contains(owner.uid()) : !owner.suspended();
            for (PodSetDemand podSet : owner.podSets()) {
                scale(owner, podSet, runnable ? podSet.count() : 0, pods);
            }
        }
        Set<String> ownerUids = owners.stream().map(WorkloadOwner::uid).collect(Collectors.toSet());
        pods.stream().filter(p -> !ownedByAny(p, ownerUids)).forEach(this::delete);
    }

    private void scale(WorkloadOwner owner, PodSetDemand podSet, int desired, List<Pod> pods) {
        Map<String, String> selector = PodNaming.selector(owner, podSet.name());
        List<Pod> current = pods.stream()
                .filter(p -> p.getMetadata().getNamespace().equals(owner.namespace()))
                .filter(p -> p.getMetadata().getLabels().entrySet().containsAll(selector.entrySet()))
                .filter(p -> ownedByAny(p, Set.of(owner.uid())))
                .sorted(deletionOrder(owner))
                .toList();
        for (int i = current.size(); i < desired; i++) {
            create(owner, podSet);
        }
        for (int i = 0; i < current.size() - desired; i++) {
            delete(current.get(i));
        }
    }

    // Listed workersToDelete first, then the newest, as KubeRay picks victims.
    private static Comparator<Pod> deletionOrder(WorkloadOwner owner) {
        return Comparator.<Pod, Boolean>comparing(
                        p -> !owner.workersToDelete().contains(p.getMetadata().getName()))
                .thenComparing(p -> String.valueOf(p.getMetadata().getCreationTimestamp()), Comparator.reverseOrder())
                .thenComparing(p -> p.getMetadata().getName());
    }

    private void create(WorkloadOwner owner, PodSetDemand podSet) {
        PodTemplate template = owner.templates().get(podSet.name());
        Map<String, Quantity> requests = new HashMap<>();
        template.requests().forEach((k, v) -> requests.put(k, new Quantity(v)));
        Map<String, Quantity> limits = new HashMap<>();
        template.limits().forEach((k, v) -> limits.put(k, new Quantity(v)));
        podSet.perPod().forEach((resource, units) -> {
            requests.put(resource, new Quantity(Long.toString(units)));
            limits.put(resource, new Quantity(Long.toString(units)));
        });
        Pod pod = new PodBuilder()
                .withNewMetadata()
                .withName(PodNaming.podName(owner, podSet.name()))
                .withNamespace(owner.namespace())
                .withLabels(PodNaming.labels(owner, podSet.name()))
                .withOwnerReferences(new OwnerReferenceBuilder()
                        .withApiVersion(owner.apiVersion())
                        .withKind(owner.kind())
                        .withName(owner.name())
                        .withUid(owner.uid())
                        .withController(true)
                        .withBlockOwnerDeletion(true)
                        .build())
                .endMetadata()
                .withNewSpec()
                .withContainers(new ContainerBuilder()
                        .withName(template.container())
                        .withImage(template.image())
                        .withNewResources()
                        .withRequests(requests)
                        .withLimits(limits)
                        .endResources()
                        .build())
                .endSpec()
                .withNewStatus()
                .withPhase("Pending")
                .endStatus()
                .build();
        client.pods().inNamespace(owner.namespace()).resource(pod).create();
        LOG.info(
                "pod {}/{} created for {}", owner.namespace(), pod.getMetadata().getName(), owner.key());
    }

    private void delete(Pod pod) {
        try {
            client.pods()
                    .inNamespace(pod.getMetadata().getNamespace())
                    .withName(pod.getMetadata().getName())
                    .delete();
            LOG.info(
                    "pod {}/{} deleted",
                    pod.getMetadata().getNamespace(),
                    pod.getMetadata().getName());
        } catch (KubernetesClientException e) {
            LOG.debug("pod {} already gone", pod.getMetadata().getName());
        }
    }

    private static boolean ownedByAny(Pod pod, Set<String> uids) {
        return pod.getMetadata().getOwnerReferences() != null
                && pod.getMetadata().getOwnerReferences().stream().anyMatch(o -> uids.contains(o.getUid()));
    }
}
