package io.gpuaas.local.kueue;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Quantity;
import io.gpuaas.kube.kueue.v1beta2.Workload;
import io.gpuaas.kube.kueue.v1beta2.WorkloadSpec;
import io.gpuaas.kube.kueue.v1beta2.WorkloadStatus;
import io.gpuaas.kube.kueue.v1beta2.workloadspec.PodSets;
import io.gpuaas.kube.kueue.v1beta2.workloadstatus.admission.PodSetAssignments;
import io.gpuaas.local.kueue.Admission.PodSetAssignment;
import io.gpuaas.local.model.OwnerReader;
import io.gpuaas.local.model.PodSetDemand;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What the stand-in needs from a Kueue Workload: queue, pod sets, owner uid, admission and conditions.
 *
 * @param resource   the Workload as read
 * @param queueName  spec.queueName
 * @param podSets    spec.podSets (accelerators only), to compare with the owner's
 * @param requests   spec.podSets with every resource Kueue counts (all requests but the excluded prefixes), in
 *                   {@link ResourceUnits}
 * @param ownerUid   the controlling owner's uid
 * @param admission  status.admission, when quota is reserved
 * @param conditions status.conditions
 * @param priority   its priority ({@link PriorityClasses#priorityOf})
 */
record WorkloadView(
        Workload resource,
        String queueName,
        List<PodSetDemand> podSets,
        List<PodSetDemand> requests,
        Optional<String> ownerUid,
        Optional<Admission.Admitted> admission,
        List<Condition> conditions,
        int priority) {

    /**
     * @param excludedPrefixes resources Kueue's Configuration excludes ({@code resources.excludeResourcePrefixes}):
     *                         not counted, so no ClusterQueue needs to cover them
     */
    static WorkloadView of(Workload workload, List<String> excludedPrefixes, PriorityClasses priorities) {
        WorkloadSpec spec = Optional.ofNullable(workload.getSpec()).orElseGet(WorkloadSpec::new);
        List<PodSetDemand> podSets = new ArrayList<>();
        List<PodSetDemand> requests = new ArrayList<>();
        for (PodSets podSet : listOf(spec.getPodSets())) {
            Map<String, Long> accelerators = new LinkedHashMap<>();
            Map<String, Long> counted = new LinkedHashMap<>();
            for (Container container : containers(podSet)) {
                requests(container).forEach((resource, quantity) -> {
                    if (resource.startsWith(OwnerReader.ACCELERATOR_PREFIX)) {
                        accelerators.merge(
                                resource, quantity.getNumericalAmount().longValue(), Long::sum);
                    }
                    if (excludedPrefixes.stream().noneMatch(resource::startsWith)) {
                        counted.merge(resource, ResourceUnits.of(resource, quantity), Long::sum);
                    }
                });
            }
            String name = Objects.requireNonNullElse(podSet.getName(), "main");
            int count = Objects.requireNonNullElse(podSet.getCount(), 1);
            podSets.add(new PodSetDemand(name, count, accelerators));
            requests.add(new PodSetDemand(name, count, counted));
        }
        Optional<String> ownerUid = workload.getMetadata().getOwnerReferences() == null
                ? Optional.empty()
                : workload.getMetadata().getOwnerReferences().stream()
                        .findFirst()
                        .map(o -> o.getUid());
        Optional<WorkloadStatus> status = Optional.ofNullable(workload.getStatus());
        List<Condition> conditions = List.copyOf(
                Conditions.of(status.map(WorkloadStatus::getConditions).orElse(null)));
        return new WorkloadView(
                workload,
                Objects.requireNonNullElse(spec.getQueueName(), ""),
                podSets,
                requests,
                ownerUid,
                admission(status),
                conditions,
                priorities.priorityOf(workload));
    }

    String namespace() {
        return resource.getMetadata().getNamespace();
    }

    String name() {
        return resource.getMetadata().getName();
    }

    String creationTimestamp() {
        return Optional.ofNullable(resource.getMetadata().getCreationTimestamp())
                .orElse("");
    }

    /**
     * Where it stands in its queue: an evicted Workload is requeued at its eviction (Kueue's default
     * {@code requeuingTimestamp: Eviction}), others at their creation.
     */
    String queueOrderTime() {
        return conditions.stream()
                .filter(c -> "Evicted".equals(c.getType()) && "True".equals(c.getStatus()))
                .map(Condition::getLastTransitionTime)
                .filter(Objects::nonNull)
                .findFirst()
                .orElseGet(this::creationTimestamp);
    }

    /** When its quota was reserved, "" when it holds none. */
    String reservedAt() {
        return conditions.stream()
                .filter(c -> "QuotaReserved".equals(c.getType()) && "True".equals(c.getStatus()))
                .map(Condition::getLastTransitionTime)
                .filter(Objects::nonNull)
                .findFirst()
                .orElse("");
    }

    /** Admitted with exactly the pod counts the spec asks for now (an elastic job may have changed them). */
    boolean admittedAsSpecified() {
        return admission.isPresent()
                && Conditions.isTrue(conditions, "Admitted")
                && admission.get().podSets().stream()
                        .map(PodSetAssignment::count)
                        .toList()
                        .equals(podSets.stream().map(PodSetDemand::count).toList());
    }

    private static Optional<Admission.Admitted> admission(Optional<WorkloadStatus> status) {
        var admission = status.map(WorkloadStatus::getAdmission);
        if (admission.isEmpty()) {
            return Optional.empty();
        }
        List<PodSetAssignment> assignments = new ArrayList<>();
        for (PodSetAssignments assignment : listOf(admission.get().getPodSetAssignments())) {
            Map<String, String> flavors = new LinkedHashMap<>(mapOf(assignment.getFlavors()));
            Map<String, Long> usage = new LinkedHashMap<>();
            mapOf(assignment.getResourceUsage())
                    .forEach((resource, quantity) -> usage.put(resource, ResourceUnits.of(resource, quantity)));
            assignments.add(new PodSetAssignment(
                    Objects.requireNonNullElse(assignment.getName(), "main"),
                    Objects.requireNonNullElse(assignment.getCount(), 0),
                    flavors,
                    usage));
        }
        return Optional.of(new Admission.Admitted(
                Objects.requireNonNullElse(admission.get().getClusterQueue(), ""), assignments));
    }

    private static List<Container> containers(PodSets podSet) {
        return podSet.getTemplate() == null || podSet.getTemplate().getSpec() == null
                ? List.of()
                : listOf(podSet.getTemplate().getSpec().getContainers());
    }

    private static Map<String, Quantity> requests(Container container) {
        return container.getResources() == null
                ? Map.of()
                : mapOf(container.getResources().getRequests());
    }

    static <T> List<T> listOf(List<T> list) {
        return list == null ? List.of() : list;
    }

    static <K, V> Map<K, V> mapOf(Map<K, V> map) {
        return map == null ? Map.of() : map;
    }
}
