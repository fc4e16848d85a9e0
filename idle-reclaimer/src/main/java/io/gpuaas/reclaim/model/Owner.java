package io.gpuaas.reclaim.model;

import io.gpuaas.events.reclaim.WorkloadRef;

/**
 * What a pod's GPUs belong to.
 *
 * @param workload       the RayCluster or InferenceService
 * @param group          the Ray worker group, or {@code predictor}
 * @param podStartMillis when the pod was created: the warm-up grace counts from here
 * @param gpus           GPU devices (GPUs or MIG instances) the pod's containers ask for; until that many devices
 *                       of the pod have reported, the workload is not judged (0 when the spec says nothing)
 */
public record Owner(WorkloadRef workload, String group, long podStartMillis, int gpus) {

    public static final String RAY_CLUSTER = WorkloadRef.RAY_CLUSTER;
    public static final String INFERENCE_SERVICE = WorkloadRef.INFERENCE_SERVICE;
    public static final String PREDICTOR = "predictor";
}
