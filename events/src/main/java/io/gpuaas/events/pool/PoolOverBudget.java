package io.gpuaas.events.pool;

/**
 * What a pool lets a tenant do that is over its budget for the current month ({@code overBudget} in the pool
 * catalog; absent: nothing).
 *
 * <p>With {@code borrow}, quota-projector gives such a tenant a queue that holds no quota of the pool
 * ({@code nominalQuota: 0}) and may only borrow what the cohort has idle, at the priority of the Kueue
 * WorkloadPriorityClass {@code gpuaas-borrowed} (below the default 0), which booked tenants preempt
 * ({@code reclaimWithinCohort}) when they need their units: over-budget work never runs on a booking's guaranteed
 * quota.
 *
 * @param borrow whether an over-budget tenant may run work on idle capacity of the pool, preemptible
 */
public record PoolOverBudget(boolean borrow) {}
