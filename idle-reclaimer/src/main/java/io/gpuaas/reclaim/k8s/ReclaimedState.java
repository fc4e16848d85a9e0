package io.gpuaas.reclaim.k8s;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.gpuaas.events.Json;
import java.time.Instant;
import java.util.List;

/**
 * What a reclaim changed, stored as JSON in the {@code gpuaas.io/reclaimed-state} annotation of the workload in the
 * same write as the change, so a resume can restore exactly the previous values whoever triggers it.
 *
 * @param actionId      the reclaim that wrote it: the same id seen again means the change is already applied
 * @param reclaimedAt   when
 * @param strategy      how: {@code ray-worker-groups}, {@code serverless-min-replicas}, {@code stop-annotation},
 *                      {@code predictor-deployment}
 * @param groups        previous values per worker group (or the single {@code predictor})
 * @param previousStop  previous value of {@code serving.kserve.io/stop}, null when it was absent
 */
public record ReclaimedState(
        String actionId, Instant reclaimedAt, String strategy, List<GroupState> groups, String previousStop) {

    public static final String RAY = "ray-worker-groups";
    public static final String SERVERLESS = "serverless-min-replicas";
    public static final String STOP = "stop-annotation";
    public static final String DEPLOYMENT = "predictor-deployment";

    /**
     * Previous values of one scaled unit; null means the field was absent and is removed again on resume.
     */
    public record GroupState(String group, Integer replicas, Integer minReplicas, List<String> workersToDelete) {}

    public String toJson() {
        try {
            return Json.mapper().writeValueAsString(this);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write reclaimed state of action " + actionId, e);
        }
    }

    /** Parses the annotation; a value this version cannot read is an error, never silently "not reclaimed". */
    public static ReclaimedState parse(String json) {
        try {
            return Json.mapper().readValue(json, ReclaimedState.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("unreadable " + KubeResources.RECLAIMED_STATE + " annotation", e);
        }
    }

    public ReclaimedState withAction(String id, Instant at) {
        return new ReclaimedState(id, at, strategy, groups, previousStop);
    }
}
