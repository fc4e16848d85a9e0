package io.gpuaas.local.kueue;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.kube.kueue.v1beta2.Workload;
import io.gpuaas.kube.kueue.v1beta2.WorkloadPriorityClass;
import io.gpuaas.kube.kueue.v1beta2.WorkloadSpec;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The cluster's WorkloadPriorityClasses by name, read once per pass. A Workload's priority is {@code spec.priority}
 * (Kueue's {@code priority.Priority}); one without it takes the value of the class its {@code spec.priorityClassRef}
 * names, and 0 when neither says anything.
 */
final class PriorityClasses {

    static final String GROUP = "kueue.x-k8s.io";
    static final String KIND = "WorkloadPriorityClass";

    /** A class and its value. */
    record Named(String name, int value) {}

    private final Map<String, Integer> values;

    PriorityClasses(Map<String, Integer> values) {
        this.values = Map.copyOf(values);
    }

    static PriorityClasses read(KubernetesClient client) {
        Map<String, Integer> values = new HashMap<>();
        for (WorkloadPriorityClass wpc :
                client.resources(WorkloadPriorityClass.class).list().getItems()) {
            values.put(wpc.getMetadata().getName(), Objects.requireNonNullElse(wpc.getValue(), 0));
        }
        return new PriorityClasses(values);
    }

    /** The class named, if it exists. */
    Optional<Named> named(String name) {
        return Optional.ofNullable(values.get(name)).map(v -> new Named(name, v));
    }

    int priorityOf(Workload workload) {
        WorkloadSpec spec = workload.getSpec();
        if (spec == null) {
            return 0;
        }
        if (spec.getPriority() != null) {
            return spec.getPriority();
        }
        if (spec.getPriorityClassRef() != null
                && KIND.equals(spec.getPriorityClassRef().getKind())) {
            return values.getOrDefault(spec.getPriorityClassRef().getName(), 0);
        }
        return 0;
    }
}
