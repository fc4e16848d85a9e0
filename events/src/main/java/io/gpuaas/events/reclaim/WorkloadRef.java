package io.gpuaas.events.reclaim;

/**
 * A reclaimable workload: {@code kind} is {@code RayCluster} or {@code InferenceService}.
 *
 * @param namespace namespace of the object
 * @param kind      {@code RayCluster} (ray.io/v1) or {@code InferenceService} (serving.kserve.io/v1beta1)
 * @param name      object name
 */
public record WorkloadRef(String namespace, String kind, String name) {

    /** {@code namespace/kind/name}, the record key on {@code gpuaas.reclaim-events}. */
    public String key() {
        return namespace + "/" + kind + "/" + name;
    }
}
