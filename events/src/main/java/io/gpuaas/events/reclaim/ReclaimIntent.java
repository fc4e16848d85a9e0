package io.gpuaas.events.reclaim;

import java.time.Instant;
import java.util.List;

/**
 * What the idle-reclaimer's stream decided to do about an idle workload, before anything is done: the values of
 * {@code gpuaas.reclaim-intents}, keyed by workload ({@link WorkloadRef#key()}). The stream only decides (an
 * exactly-once transaction never waits on the API server); the reclaimer's applier reads these, scales the workload
 * and publishes the outcome ({@code Reclaimed}, {@code ReclaimSkipped}, {@code ReclaimFailed}) on
 * {@code gpuaas.reclaim-events}. Both topics are keyed alike, so an intent and its outcome are found by key.
 */
public sealed interface ReclaimIntent permits ReclaimIntent.ReclaimRequested, ReclaimIntent.ReclaimWithdrawn {

    /** The workload; {@link WorkloadRef#key()} is the record key. */
    WorkloadRef workload();

    /**
     * The idle window the decision is about, {@code namespace/kind/name@<window start>}. The applier records it on
     * the object in the same update that scales it, so a replayed or duplicated intent applies nothing twice.
     */
    String windowId();

    /** When the stream decided. */
    Instant time();

    /**
     * Scale the idle GPU workers of a workload to zero (or, in dry-run, say what that would change).
     *
     * @param workload       the workload to reclaim
     * @param windowId       the idle window, {@code namespace/kind/name@<window start>}: the idempotency key
     * @param tenant         tenant owning the namespace, may be null
     * @param groups         worker groups whose GPUs were idle ({@code predictor} for an InferenceService)
     * @param devices        GPU devices (GPUs or MIG instances) attributed to the workload
     * @param idleSeconds    how long the workload had been idle when the window closed
     * @param dryRun         decide and report only: the applier reads the object but writes nothing
     * @param windowClosedAt time of the sample that closed the window
     * @param time           when the stream decided
     */
    record ReclaimRequested(
            WorkloadRef workload,
            String windowId,
            String tenant,
            List<String> groups,
            int devices,
            long idleSeconds,
            boolean dryRun,
            Instant windowClosedAt,
            Instant time)
            implements ReclaimIntent {}

    /**
     * The workload was busy again (a sample over the threshold or without a value) after the reclaim of
     * {@code windowId} was requested: an intent not yet applied must not be applied any more.
     *
     * @param workload the workload
     * @param windowId the window of the request withdrawn
     * @param time     when the stream saw the workload busy again
     */
    record ReclaimWithdrawn(WorkloadRef workload, String windowId, Instant time) implements ReclaimIntent {}
}
