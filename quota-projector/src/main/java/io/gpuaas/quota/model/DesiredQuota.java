package io.gpuaas.quota.model;

import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.SortedSet;

/**
 * The Kueue quota that should exist at one instant, independent of how it is rendered into objects.
 *
 * @param at             the instant the plan is for
 * @param cells          every flavor/resource of the pool catalog, in a stable order, with its physical capacity
 * @param cohortNominal  the cohort's own quota per cell: physical capacity minus active reservations, never below 0
 * @param tenants        tenant id to its queue, only tenants with an active booking: what its ClusterQueue holds
 * @param queues         tenant id to what its LocalQueues and HardwareProfiles are rendered from: its bookings holding
 *                       capacity at some instant from {@code at} to the queue lead ahead (the same as {@code tenants}
 *                       with no lead); they carry no quota, so they may exist before the window
 * @param problems       bookings that could not be projected (unknown pool, over capacity), for logs and metrics
 * @param borrowCells    the cells over-budget tenants may borrow ({@link BorrowPlan#cells}); empty: no pool allows it
 * @param borrowers      over-budget tenant id to its borrow-only queue ({@link BorrowPlan#queues})
 */
public record DesiredQuota(
        Instant at,
        SortedMap<FlavorResource, Long> cells,
        SortedMap<FlavorResource, Long> cohortNominal,
        SortedMap<String, TenantQueue> tenants,
        SortedMap<String, TenantQueue> queues,
        List<String> problems,
        SortedSet<FlavorResource> borrowCells,
        SortedMap<String, BorrowQueue> borrowers) {

    /** A plan without over-budget borrowing. */
    public DesiredQuota(
            Instant at,
            SortedMap<FlavorResource, Long> cells,
            SortedMap<FlavorResource, Long> cohortNominal,
            SortedMap<String, TenantQueue> tenants,
            SortedMap<String, TenantQueue> queues,
            List<String> problems) {
        this(
                at,
                cells,
                cohortNominal,
                tenants,
                queues,
                problems,
                Collections.emptySortedSet(),
                Collections.emptySortedMap());
    }

    /** This plan with over-budget tenants' borrow-only queues on {@code cells}. */
    public DesiredQuota withBorrowers(SortedSet<FlavorResource> cells, SortedMap<String, BorrowQueue> queues) {
        return new DesiredQuota(
                at,
                this.cells,
                cohortNominal,
                tenants,
                this.queues,
                problems,
                cells,
                Collections.unmodifiableSortedMap(queues));
    }

    /** Sum of the tenant ClusterQueues' nominal quota on {@code cell}. */
    public long reserved(FlavorResource cell) {
        return tenants.values().stream().mapToLong(t -> t.nominal(cell)).sum();
    }
}
