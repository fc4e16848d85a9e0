package io.gpuaas.events.reclaim;

import java.time.Instant;
import java.util.List;

/** Every step the idle-reclaimer takes; the values of {@code gpuaas.reclaim-events}, keyed by workload. */
public sealed interface ReclaimEvent
        permits ReclaimEvent.IdleDetected,
                ReclaimEvent.Reclaimed,
                ReclaimEvent.Resumed,
                ReclaimEvent.ReclaimSkipped,
                ReclaimEvent.ReclaimFailed,
                ReclaimEvent.ReclaimKept {

    /** The workload acted on; {@link WorkloadRef#key()} is the record key. */
    WorkloadRef workload();

    /** When the reclaimer acted. */
    Instant time();

    /**
     * Every device of the workload stayed at or under the threshold for the whole window.
     *
     * @param tenant         tenant owning the namespace
     * @param devices        GPU devices (GPUs or MIG instances) attributed to the workload
     * @param idleSince      start of the idle window
     * @param windowSeconds  length of the policy window
     * @param threshold      the utilization threshold applied (ratio)
     * @param maxUtilization the highest utilization seen in the window
     * @param sampleCoverage samples seen / samples expected, over all devices
     * @param mode           {@code direct} or {@code keda}
     * @param workload       the workload
     * @param tenant         tenant owning the namespace, may be null
     * @param time           when the idleness was decided
     */
    record IdleDetected(
            WorkloadRef workload,
            String tenant,
            int devices,
            Instant idleSince,
            long windowSeconds,
            double threshold,
            double maxUtilization,
            double sampleCoverage,
            String mode,
            Instant time)
            implements ReclaimEvent {}

    /**
     * Workers were scaled to zero.
     *
     * @param groups      what was changed, with the previous values (stored on the object too)
     * @param gpusFreed   GPU devices released
     * @param idleSeconds how long the workload had been idle when reclaimed
     * @param action      what was patched, e.g. {@code RayCluster worker groups to 0}
     * @param dryRun      true when nothing was written
     * @param workload    the workload acted on
     * @param tenant      tenant owning the namespace, may be null
     * @param time        when the reclaimer acted
     */
    record Reclaimed(
            WorkloadRef workload,
            String tenant,
            List<ScaledGroup> groups,
            int gpusFreed,
            long idleSeconds,
            String action,
            boolean dryRun,
            Instant time)
            implements ReclaimEvent {}

    /**
     * A reclaimed workload was restored to its stored values.
     *
     * @param workload    the workload acted on
     * @param tenant      tenant owning the namespace, may be null
     * @param groups      what was restored; {@code replicas} is the restored value
     * @param requestedBy subject that asked for the resume, may be null
     * @param time        when the reclaimer acted
     */
    record Resumed(WorkloadRef workload, String tenant, List<ScaledGroup> groups, String requestedBy, Instant time)
            implements ReclaimEvent {}

    /**
     * An idle workload was deliberately left alone.
     *
     * @param reason      e.g. {@code KUEUE_NON_ELASTIC}, {@code OPTED_OUT}, {@code RATE_LIMITED}, {@code WARM_UP}
     * @param message     human-readable detail
     * @param workload    the workload acted on
     * @param tenant      tenant owning the namespace, may be null
     * @param time        when the reclaimer acted
     */
    record ReclaimSkipped(WorkloadRef workload, String tenant, String reason, String message, Instant time)
            implements ReclaimEvent {}

    /**
     * A reclaim or resume was attempted and failed; nothing was half-applied.
     *
     * @param reason      machine-readable cause, e.g. {@code CONFLICT}, {@code FORBIDDEN}
     * @param message     human-readable detail
     * @param workload    the workload acted on
     * @param tenant      tenant owning the namespace, may be null
     * @param time        when the reclaimer acted
     */
    record ReclaimFailed(WorkloadRef workload, String tenant, String reason, String message, Instant time)
            implements ReclaimEvent {}

    /**
     * One scaled unit: a RayCluster worker group or an InferenceService predictor.
     *
     * @param group               worker group name, or {@code predictor}
     * @param previousReplicas    replicas before the change
     * @param previousMinReplicas minReplicas before the change, may be null
     * @param replicas            replicas after the change
     */
    record ScaledGroup(String group, Integer previousReplicas, Integer previousMinReplicas, int replicas) {}

    /**
     * The workload's owner answered a {@code ReclaimPending} with "keep it" ({@code KeepRequested} on
     * {@code gpuaas.reclaim-keeps}) and the reclaimer granted it: no reclaim of the workload is requested before
     * {@code keptUntil}, however long it stays idle; the idle window keeps counting, and the reclaim comes at the
     * first closing sample after {@code keptUntil} if the workload is still idle then.
     *
     * @param workload     the workload
     * @param tenant       tenant owning the namespace, may be null
     * @param requestId    the answer's id (the edge's)
     * @param hours        hours granted (the answer's, within the bounds)
     * @param keptUntil    no reclaim before this instant: the end of any keep still running, or the answer's time,
     *                     plus {@code hours}
     * @param devices      GPU devices (GPUs or MIG instances) the workload held when the answer was decided
     * @param hoursToday   hours granted to the workload on the answer's UTC day, this answer included
     * @param hoursLeft    hours the workload may still be kept on that day
     * @param requestedBy  the authenticated subject that answered
     * @param time         when the answer was accepted (the keep counts from here)
     */
    record ReclaimKept(
            WorkloadRef workload,
            String tenant,
            String requestId,
            int hours,
            Instant keptUntil,
            int devices,
            int hoursToday,
            int hoursLeft,
            String requestedBy,
            Instant time)
            implements ReclaimEvent {}
}
