package io.gpuaas.reclaim.k8s;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.reclaim.model.Owner;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/** Which reclaimable workload a pod's GPUs belong to, from the labels KubeRay and KServe put on their pods. */
public final class OwnerResolver {

    public static final String RAY_CLUSTER = "ray.io/cluster";
    public static final String RAY_GROUP = "ray.io/group";
    public static final String RAY_NODE_TYPE = "ray.io/node-type";
    public static final String KSERVE_ISVC = "serving.kserve.io/inferenceservice";
    public static final String COMPONENT = "component";

    private OwnerResolver() {}

    public static Optional<Owner> ownerOf(Pod pod) {
        Map<String, String> labels = pod.getMetadata().getLabels();
        if (labels == null) {
            return Optional.empty();
        }
        String namespace = pod.getMetadata().getNamespace();
        long started = startMillis(pod.getMetadata().getCreationTimestamp());
        String cluster = labels.get(RAY_CLUSTER);
        // Head pods run the Ray control plane and are never scaled to zero: only workers count.
        if (cluster != null && "worker".equals(labels.get(RAY_NODE_TYPE))) {
            String group = labels.getOrDefault(RAY_GROUP, "");
            return Optional.of(
                    new Owner(new WorkloadRef(namespace, Owner.RAY_CLUSTER, cluster), group, started, gpus(pod)));
        }
        String isvc = labels.get(KSERVE_ISVC);
        if (isvc != null && Owner.PREDICTOR.equals(labels.get(COMPONENT))) {
            return Optional.of(new Owner(
                    new WorkloadRef(namespace, Owner.INFERENCE_SERVICE, isvc), Owner.PREDICTOR, started, gpus(pod)));
        }
        return Optional.empty();
    }

    /** GPUs and MIG instances the containers ask for ({@code nvidia.com/gpu}, {@code nvidia.com/mig-*}). */
    static int gpus(Pod pod) {
        if (pod.getSpec() == null || pod.getSpec().getContainers() == null) {
            return 0;
        }
        int total = 0;
        for (Container container : pod.getSpec().getContainers()) {
            ResourceRequirements resources = container.getResources();
            if (resources == null) {
                continue;
            }
            Map<String, Quantity> amounts =
                    resources.getLimits() != null && !resources.getLimits().isEmpty()
                            ? resources.getLimits()
                            : resources.getRequests();
            if (amounts == null) {
                continue;
            }
            for (Map.Entry<String, Quantity> e : amounts.entrySet()) {
                if (e.getKey().equals("nvidia.com/gpu") || e.getKey().startsWith("nvidia.com/mig-")) {
                    total += e.getValue().getNumericalAmount().intValue();
                }
            }
        }
        return total;
    }

    private static long startMillis(String timestamp) {
        if (timestamp == null || timestamp.isEmpty()) {
            // Unknown start: assume it just started, so the warm-up protects it.
            return System.currentTimeMillis();
        }
        return Instant.parse(timestamp).toEpochMilli();
    }
}
