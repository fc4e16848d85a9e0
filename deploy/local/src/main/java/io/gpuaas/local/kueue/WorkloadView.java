package io.gpuaas.local.kueue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Quantity;
import io.gpuaas.local.kueue.Admission.PodSetAssignment;
import io.gpuaas.local.model.Nested;
import io.gpuaas.local.model.OwnerReader;
import io.gpuaas.local.model.PodSetDemand;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the stand-in needs from a Kueue Workload: queue, pod sets, owner uid, admission and conditions.
 *
 * @param resource   the Workload as read
 * @param queueName  spec.queueName
 * @param podSets    spec.podSets (accelerators only)
 * @param ownerUid   the controlling owner's uid
 * @param admission  status.admission, when quota is reserved
 * @param conditions status.conditions
 */
record WorkloadView(GenericKubernetesResource resource, String queueName, List<PodSetDemand> podSets,
                    Optional<String> ownerUid, Optional<Admission.Admitted> admission,
                    List<Map<String, Object>> conditions) {

    static WorkloadView of(GenericKubernetesResource workload) {
        Map<String, Object> spec = Nested.map(workload.getAdditionalProperties(), "spec");
        List<PodSetDemand> podSets = new ArrayList<>();
        for (Object podSet : Nested.list(spec, "podSets")) {
            Map<String, Long> perPod = new LinkedHashMap<>();
            for (Object container : Nested.list(podSet, "template", "spec", "containers")) {
                Nested.map(container, "resources", "requests").forEach((resource, quantity) -> {
                    if (resource.startsWith(OwnerReader.ACCELERATOR_PREFIX)) {
                        perPod.merge(resource, units(quantity), Long::sum);
                    }
                });
            }
            podSets.add(new PodSetDemand(Nested.string(podSet, "name").orElse("main"),
                    Nested.integer(podSet, "count").orElse(1), perPod));
        }
        Optional<String> ownerUid = workload.getMetadata().getOwnerReferences() == null ? Optional.empty()
                : workload.getMetadata().getOwnerReferences().stream().findFirst().map(o -> o.getUid());
        List<Map<String, Object>> conditions = new ArrayList<>();
        Nested.list(workload.getAdditionalProperties(), "status", "conditions").forEach(c -> conditions.add(Nested.map(c)));
        return new WorkloadView(workload, Nested.string(spec, "queueName").orElse(""), podSets, ownerUid,
                admission(workload), conditions);
    }

    String namespace() {
        return resource.getMetadata().getNamespace();
    }

    String name() {
        return resource.getMetadata().getName();
    }

    String creationTimestamp() {
        return Optional.ofNullable(resource.getMetadata().getCreationTimestamp()).orElse("");
    }

    /** Admitted with exactly the pod counts the spec asks for now (an elastic job may have changed them). */
    boolean admittedAsSpecified() {
        return admission.isPresent() && Conditions.isTrue(conditions, "Admitted")
                && admission.get().podSets().stream().map(PodSetAssignment::count).toList()
                .equals(podSets.stream().map(PodSetDemand::count).toList());
    }

    private static Optional<Admission.Admitted> admission(GenericKubernetesResource workload) {
        Map<String, Object> admission = Nested.map(workload.getAdditionalProperties(), "status", "admission");
        if (admission.isEmpty()) {
            return Optional.empty();
        }
        List<PodSetAssignment> assignments = new ArrayList<>();
        for (Object assignment : Nested.list(admission, "podSetAssignments")) {
            Map<String, String> flavors = new LinkedHashMap<>();
            Nested.map(assignment, "flavors").forEach((resource, flavor) -> flavors.put(resource, flavor.toString()));
            Map<String, Long> usage = new LinkedHashMap<>();
            Nested.map(assignment, "resourceUsage").forEach((resource, quantity) -> usage.put(resource, units(quantity)));
            assignments.add(new PodSetAssignment(Nested.string(assignment, "name").orElse("main"),
                    Nested.integer(assignment, "count").orElse(0), flavors, usage));
        }
        return Optional.of(new Admission.Admitted(Nested.string(admission, "clusterQueue").orElse(""), assignments));
    }

    static long units(Object quantity) {
        if (quantity instanceof Number number) {
            return number.longValue();
        }
        return new Quantity(String.valueOf(quantity)).getNumericalAmount().longValue();
    }
}
