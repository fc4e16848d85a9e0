package io.gpuaas.local.kueue;

/**
 * A ClusterQueue's {@code spec.preemption} as classical (not fair-sharing) preemption reads it.
 *
 * @param reclaimWithinCohort {@code Never}, {@code LowerPriority} or {@code Any}: whether a Workload that fits its
 *                            queue's nominal quota may evict Workloads of other queues of the cohort that are
 *                            borrowing, of lower priority only or of any
 * @param withinClusterQueue  {@code Never}, {@code LowerPriority} or {@code LowerOrNewerEqualPriority}: whether it
 *                            may evict Workloads of its own queue
 */
public record PreemptionPolicy(String reclaimWithinCohort, String withinClusterQueue) {

    public static final String NEVER = "Never";
    public static final String ANY = "Any";
    public static final String LOWER_PRIORITY = "LowerPriority";
    public static final String LOWER_OR_NEWER_EQUAL_PRIORITY = "LowerOrNewerEqualPriority";

    /** Kueue's defaults: no preemption at all. */
    public static final PreemptionPolicy NONE = new PreemptionPolicy(NEVER, NEVER);

    public PreemptionPolicy {
        reclaimWithinCohort = reclaimWithinCohort == null ? NEVER : reclaimWithinCohort;
        withinClusterQueue = withinClusterQueue == null ? NEVER : withinClusterQueue;
    }
}
