package io.gpuaas.quota.k8s;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.gpuaas.events.workload.WorkloadEvent.Condition;
import io.gpuaas.events.workload.WorkloadEvent.Owner;
import io.gpuaas.events.workload.WorkloadEvent.PodSet;
import io.gpuaas.events.workload.WorkloadEvent.PodSetAdmission;
import io.gpuaas.events.workload.WorkloadEvent.WorkloadObserved;
import io.gpuaas.kube.kueue.v1beta2.Workload;
import io.gpuaas.kube.kueue.v1beta2.WorkloadSpec;
import io.gpuaas.kube.kueue.v1beta2.workloadspec.PodSets;
import io.gpuaas.kube.kueue.v1beta2.workloadstatus.Admission;
import io.gpuaas.quota.model.KueueConditions;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** Reads Kueue v1beta2 Workloads: what they ask for, where they are admitted, their conditions and owner. */
public final class Workloads {

    private Workloads() {}

    /** The ClusterQueue holding quota for this Workload, or null when it holds none (pending or finished). */
    public static String admittedClusterQueue(Workload workload) {
        return holdsQuota(conditions(workload)) ? clusterQueue(workload) : null;
    }

    /** {@code status.admission.clusterQueue}, whether or not the Workload still holds quota there. */
    static String clusterQueue(Workload workload) {
        return admission(workload).map(Admission::getClusterQueue).orElse(null);
    }

    /** {@code namespace/queueName} of the LocalQueue the Workload was submitted to, or null. */
    public static String localQueueKey(Workload workload) {
        String queue = spec(workload).getQueueName();
        return queue == null ? null : workload.getMetadata().getNamespace() + "/" + queue;
    }

    public static boolean holdsQuota(List<Condition> conditions) {
        return !isTrue(conditions, KueueConditions.FINISHED)
                && (isTrue(conditions, KueueConditions.QUOTA_RESERVED) || isTrue(conditions, KueueConditions.ADMITTED));
    }

    static boolean isTrue(List<Condition> conditions, String type) {
        return conditions.stream().anyMatch(c -> type.equals(c.type()) && KueueConditions.TRUE.equals(c.status()));
    }

    /** The Workload as a {@link WorkloadObserved} without a transition; the publisher adds one per change. */
    public static WorkloadObserved snapshot(Workload workload, Instant now) {
        var meta = workload.getMetadata();
        WorkloadSpec spec = spec(workload);
        String priorityClass = spec.getPriorityClassRef() == null
                ? null
                : spec.getPriorityClassRef().getName();
        return new WorkloadObserved(
                meta.getNamespace(),
                meta.getName(),
                meta.getUid(),
                meta.getResourceVersion(),
                spec.getQueueName(),
                clusterQueue(workload),
                spec.getPriority(),
                priorityClass,
                !Boolean.FALSE.equals(spec.getActive()),
                null,
                conditions(workload),
                podSets(spec),
                admissions(workload),
                owner(workload),
                now);
    }

    public static List<Condition> conditions(Workload workload) {
        if (workload.getStatus() == null || workload.getStatus().getConditions() == null) {
            return List.of();
        }
        return workload.getStatus().getConditions().stream()
                .map(c -> new Condition(
                        c.getType(), c.getStatus(), c.getReason(), c.getMessage(), time(c.getLastTransitionTime())))
                .toList();
    }

    static List<PodSet> podSets(WorkloadSpec spec) {
        List<PodSets> podSets = spec.getPodSets() == null ? List.of() : spec.getPodSets();
        return podSets.stream()
                .map(p -> new PodSet(
                        p.getName(),
                        p.getCount() == null ? 1 : p.getCount(),
                        podRequests(
                                p.getTemplate() == null ? null : p.getTemplate().getSpec())))
                .toList();
    }

    /** Per-pod requests: containers summed; a resource given only as a limit (as GPUs usually are) counts as requested. */
    static Map<String, String> podRequests(PodSpec podSpec) {
        Map<String, BigDecimal> sum = new TreeMap<>();
        List<Container> containers =
                podSpec == null || podSpec.getContainers() == null ? List.of() : podSpec.getContainers();
        for (Container container : containers) {
            Map<String, Quantity> merged = new TreeMap<>();
            Optional.ofNullable(container.getResources()).ifPresent(r -> {
                Optional.ofNullable(r.getLimits()).ifPresent(merged::putAll);
                Optional.ofNullable(r.getRequests()).ifPresent(merged::putAll);
            });
            merged.forEach((name, value) -> sum.merge(name, amount(value), BigDecimal::add));
        }
        Map<String, String> requests = new TreeMap<>();
        sum.forEach(
                (name, value) -> requests.put(name, value.stripTrailingZeros().toPlainString()));
        return requests;
    }

    static List<PodSetAdmission> admissions(Workload workload) {
        return admission(workload).map(Admission::getPodSetAssignments).orElse(List.of()).stream()
                .map(a -> new PodSetAdmission(
                        a.getName(),
                        a.getCount() == null ? 0 : a.getCount(),
                        a.getFlavors() == null ? Map.of() : new TreeMap<>(a.getFlavors()),
                        usage(a.getResourceUsage())))
                .toList();
    }

    static Owner owner(Workload workload) {
        List<OwnerReference> refs = workload.getMetadata().getOwnerReferences();
        if (refs == null || refs.isEmpty()) {
            return null;
        }
        OwnerReference ref = refs.stream()
                .filter(r -> Boolean.TRUE.equals(r.getController()))
                .findFirst()
                .orElse(refs.get(0));
        return new Owner(ref.getApiVersion(), ref.getKind(), ref.getName(), ref.getUid());
    }

    private static BigDecimal amount(Quantity quantity) {
        return quantity == null ? BigDecimal.ZERO : quantity.getNumericalAmount();
    }

    private static Map<String, String> usage(Map<String, io.fabric8.kubernetes.api.model.IntOrString> usage) {
        Map<String, String> out = new TreeMap<>();
        if (usage != null) {
            usage.forEach((resource, quantity) -> out.put(
                    resource,
                    quantity == null
                            ? null
                            : quantity.getIntVal() != null
                                    ? quantity.getIntVal().toString()
                                    : quantity.getStrVal()));
        }
        return out;
    }

    private static Optional<Admission> admission(Workload workload) {
        return Optional.ofNullable(workload.getStatus()).map(s -> s.getAdmission());
    }

    private static WorkloadSpec spec(Workload workload) {
        return workload.getSpec() != null ? workload.getSpec() : new WorkloadSpec();
    }

    private static Instant time(String text) {
        return text == null ? null : Instant.parse(text);
    }
}
