package io.gpuaas.local.model;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A RayCluster or InferenceService as the Kueue and operator stand-ins see it.
 *
 * @param kind        {@code RayCluster} or {@code InferenceService}
 * @param apiVersion  its apiVersion
 * @param namespace   namespace
 * @param name        name
 * @param uid         uid
 * @param queueName   value of {@code kueue.x-k8s.io/queue-name}, if queued
 * @param priorityClass value of {@code kueue.x-k8s.io/priority-class}: the WorkloadPriorityClass its Workload gets
 * @param elastic     {@code kueue.x-k8s.io/elastic-job: "true"}: pod counts change in place instead of requeueing
 * @param suspended   {@code spec.suspend} (RayCluster only)
 * @param podSets     pod sets with their current replica counts
 * @param templates   container name and resources per pod set, to build pods from
 * @param annotations owner annotations
 * @param workersToDelete pod names listed in the RayCluster's {@code scaleStrategy.workersToDelete}
 */
public record WorkloadOwner(
        String kind,
        String apiVersion,
        String namespace,
        String name,
        String uid,
        Optional<String> queueName,
        Optional<String> priorityClass,
        boolean elastic,
        boolean suspended,
        List<PodSetDemand> podSets,
        Map<String, PodTemplate> templates,
        Map<String, String> annotations,
        List<String> workersToDelete) {

    public static final String RAY_CLUSTER = "RayCluster";
    public static final String INFERENCE_SERVICE = "InferenceService";

    /** namespace/kind/name, the key reclaim events use. */
    public String key() {
        return namespace + "/" + kind + "/" + name;
    }

    /** Kueue's name for the Workload of this owner: {@code <kind>-<name>-<uid hash>}. */
    public String workloadName() {
        String hash = Integer.toHexString(uid.hashCode() & 0xfffff);
        return kind.toLowerCase(Locale.ROOT) + "-" + name + "-" + hash;
    }

    /**
     * The container of one pod set: its name and resources as they go into pods.
     *
     * @param container container name
     * @param image     container image
     * @param requests  requests (string quantities)
     * @param limits    limits (string quantities)
     */
    public record PodTemplate(
            String container, String image, Map<String, String> requests, Map<String, String> limits) {}
}
