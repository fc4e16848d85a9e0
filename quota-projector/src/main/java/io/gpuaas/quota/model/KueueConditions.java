package io.gpuaas.quota.model;

/** Kueue's Workload condition types, statuses and reasons the projector reads, declared once. */
public final class KueueConditions {

    public static final String QUOTA_RESERVED = "QuotaReserved";
    public static final String ADMITTED = "Admitted";
    public static final String FINISHED = "Finished";
    public static final String TRUE = "True";
    public static final String FALSE = "False";
    /** Reason of {@code QuotaReserved=False} when Kueue cannot consider the Workload (missing or stopped queue). */
    public static final String INADMISSIBLE = "Inadmissible";

    private KueueConditions() {}
}
