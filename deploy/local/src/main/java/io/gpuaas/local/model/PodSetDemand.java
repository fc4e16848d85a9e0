package io.gpuaas.local.model;

import java.util.Map;

/**
 * One pod set of a workload as Kueue sees it: a name, a pod count and what one pod requests.
 *
 * @param name   pod set name ({@code head}, a Ray worker group name, {@code predictor})
 * @param count  pods in the set
 * @param perPod requests of one pod per resource: accelerators in whole units where the owner is read; in Kueue's
 *               units (cpu in millicores, memory in bytes) where the stand-in admits a Workload
 */
public record PodSetDemand(String name, int count, Map<String, Long> perPod) {

    public PodSetDemand {
        perPod = Map.copyOf(perPod);
    }

    /** Total of {@code resource} the set needs. */
    public long total(String resource) {
        return perPod.getOrDefault(resource, 0L) * count;
    }
}
