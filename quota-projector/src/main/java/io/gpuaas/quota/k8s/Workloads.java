package io.gpuaas.quota.k8s;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.gpuaas.events.workload.WorkloadEvent.Condition;
import io.gpuaas.events.workload.WorkloadEvent.Owner;
import io.gpuaas.events.workload.WorkloadEvent.PodSet;
import io.gpuaas.events.workload.WorkloadEvent.PodSetAdmission;
import io.gpuaas.events.workload.WorkloadEvent.WorkloadObserved;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Reads Kueue v1beta2 Workloads: what they ask for, where they are admitted, their conditions and owner. */
public final class Workloads {

    private Workloads() {
    }

    /** The ClusterQueue holding quota for this Workload, or null when it holds none (pending or finished). */
    public static String admittedClusterQueue(GenericKubernetesResource workload) {
        List<Condition> conditions = conditions(workload);
        if (!holdsQuota(conditions)) {
            return null;
        }
        return Fields.string(Fields.at(workload, "status", "admission"), "clusterQueue");
    }

    /** {@code namespace/queueName} of the LocalQueue the Workload was submitted to, or null. */
    public static String localQueueKey(GenericKubernetesResource workload) {
        Object queue = Fields.at(workload, "spec", "queueName");
        return queue == null ? null : workload.getMetadata().getNamespace() + "/" + queue;
    }

    public static boolean holdsQuota(List<Condition> conditions) {
        return !isTrue(conditions, "Finished") && (isTrue(conditions, "QuotaReserved") || isTrue(conditions, "Admitted"));
    }

    static boolean isTrue(List<Condition> conditions, String type) {
        return conditions.stream().anyMatch(c -> type.equals(c.type()) && "True".equals(c.status()));
    }

    /** The Workload as a {@link WorkloadObserved} without a transition; the publisher adds one per change. */
    public static WorkloadObserved snapshot(GenericKubernetesResource workload, Instant now) {
        var meta = workload.getMetadata();
        Object spec = Fields.at(workload, "spec");
        Object priority = Fields.map(spec).get("priority");
        Object active = Fields.map(spec).get("active");
        return new WorkloadObserved(meta.getNamespace(), meta.getName(), meta.getUid(), meta.getResourceVersion(),
                Fields.string(spec, "queueName"), Fields.string(Fields.at(workload, "status", "admission"), "clusterQueue"),
                priority instanceof Number n ? n.intValue() : null, Fields.string(Fields.map(spec, "priorityClassRef"), "name"),
                !Boolean.FALSE.equals(active) && !"false".equals(String.valueOf(active)), null, conditions(workload),
                podSets(workload), admission(workload), owner(workload), now);
    }

    public static List<Condition> conditions(GenericKubernetesResource workload) {
        return Fields.maps(Fields.at(workload, "status", "conditions")).stream()
                .map(c -> new Condition(Fields.string(c, "type"), Fields.string(c, "status"), Fields.string(c, "reason"),
                        Fields.string(c, "message"), time(Fields.string(c, "lastTransitionTime"))))
                .toList();
    }

    static List<PodSet> podSets(GenericKubernetesResource workload) {
        return Fields.maps(Fields.at(workload, "spec", "podSets")).stream()
                .map(p -> new PodSet(Fields.string(p, "name"), Fields.integer(p, "count", 1),
                        podRequests(Fields.map(Fields.map(p, "template"), "spec"))))
                .toList();
    }

    /** Per-pod requests: containers summed; a resource given only as a limit (as GPUs usually are) counts as requested. */
    static Map<String, String> podRequests(Map<?, ?> podSpec) {
        Map<String, BigDecimal> sum = new TreeMap<>();
        for (Map<?, ?> container : Fields.maps(podSpec.get("containers"))) {
            Map<?, ?> resources = Fields.map(container, "resources");
            Map<String, Object> merged = new TreeMap<>();
            Fields.map(resources, "limits").forEach((k, v) -> merged.put(k.toString(), v));
            Fields.map(resources, "requests").forEach((k, v) -> merged.put(k.toString(), v));
            merged.forEach((name, value) -> sum.merge(name, amount(value), BigDecimal::add));
        }
        Map<String, String> requests = new TreeMap<>();
        sum.forEach((name, value) -> requests.put(name, value.stripTrailingZeros().toPlainString()));
        return requests;
    }

    static List<PodSetAdmission> admission(GenericKubernetesResource workload) {
        return Fields.maps(Fields.at(workload, "status", "admission", "podSetAssignments")).stream()
                .map(a -> new PodSetAdmission(Fields.string(a, "name"), Fields.integer(a, "count", 0),
                        strings(Fields.map(a, "flavors")), strings(Fields.map(a, "resourceUsage"))))
                .toList();
    }

    static Owner owner(GenericKubernetesResource workload) {
        List<OwnerReference> refs = workload.getMetadata().getOwnerReferences();
        if (refs == null || refs.isEmpty()) {
            return null;
        }
        OwnerReference ref = refs.stream().filter(r -> Boolean.TRUE.equals(r.getController())).findFirst().orElse(refs.get(0));
        return new Owner(ref.getApiVersion(), ref.getKind(), ref.getName(), ref.getUid());
    }

    public static BigDecimal amount(Object quantity) {
        return quantity == null ? BigDecimal.ZERO : NominalQuota.quantity(quantity);
    }

    private static Map<String, String> strings(Map<?, ?> map) {
        Map<String, String> out = new TreeMap<>();
        map.forEach((k, v) -> out.put(k.toString(), v == null ? null : v.toString()));
        return out;
    }

    private static Instant time(String text) {
        return text == null ? null : Instant.parse(text);
    }
}
