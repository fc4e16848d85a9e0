package io.gpuaas.quota.model;

import java.time.Instant;
import java.util.List;
import java.util.SortedMap;

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
 */
public record DesiredQuota(
        Instant at,
        SortedMap<FlavorResource, Long> cells,
        SortedMap<FlavorResource, Long> cohortNominal,
        SortedMap<String, TenantQueue> tenants,
        SortedMap<String, TenantQueue> queues,
        List<String> problems) {

    /** Sum of the tenant ClusterQueues' nominal quota on {@code cell}. */
    public long reserved(FlavorResource cell) {
        return tenants.values().stream().mapToLong(t -> t.nominal(cell)).sum();
    }
}
