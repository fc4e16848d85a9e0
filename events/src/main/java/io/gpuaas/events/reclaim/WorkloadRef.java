package io.gpuaas.events.reclaim;

import java.util.Locale;
import java.util.Optional;

/**
 * A reclaimable workload: {@code kind} is {@code RayCluster} or {@code InferenceService}.
 *
 * @param namespace namespace of the object
 * @param kind      {@code RayCluster} (ray.io/v1) or {@code InferenceService} (serving.kserve.io/v1beta1)
 * @param name      object name
 */
public record WorkloadRef(String namespace, String kind, String name) {

    /** The kind of a Ray cluster (ray.io/v1), as events and keys spell it. */
    public static final String RAY_CLUSTER = "RayCluster";

    /** The kind of a KServe InferenceService (serving.kserve.io/v1beta1), as events and keys spell it. */
    public static final String INFERENCE_SERVICE = "InferenceService";

    /** {@code namespace/kind/name}, the record key on {@code gpuaas.reclaim-events}. */
    public String key() {
        return namespace + "/" + kind + "/" + name;
    }

    /**
     * The kind as events spell it for one a user typed in a path: either kind in any case, its plural (what
     * {@code kubectl get} takes) or {@code isvc}, KServe's short name. Empty for anything else, which every HTTP edge
     * answers with 400 {@code RECLAIMABLE_KIND}, so services agree on what a workload path may name.
     */
    public static Optional<String> canonicalKind(String kind) {
        if (kind == null) {
            return Optional.empty();
        }
        return switch (kind.toLowerCase(Locale.ROOT)) {
            case "raycluster", "rayclusters" -> Optional.of(RAY_CLUSTER);
            case "inferenceservice", "inferenceservices", "isvc" -> Optional.of(INFERENCE_SERVICE);
            default -> Optional.empty();
        };
    }
}
