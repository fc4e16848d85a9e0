package io.gpuaas.events.reclaim;

import java.time.Instant;

/**
 * A granted "keep it" answer to a {@code ReclaimPending}: "keep this workload for {@code hours} more hours". The values
 * of {@code gpuaas.reclaim-keeps}, keyed by workload ({@link WorkloadRef#key()}), written only by booking-service's
 * decision engine once the pool's writer granted a {@code KeepWorkload} within the booking's bounds (per answer, per
 * booking and UTC day), in the same transaction as its {@code WorkloadKeepDecided}; read by idle-reclaimer's stream,
 * which decides the keep in the same exactly-once transaction as the workload's idle windows: the reclaim is not
 * requested before {@code time + hours} (after any keep still running), and a {@code ReclaimKept} on
 * {@code gpuaas.reclaim-events} says what was granted.
 *
 * @param workload    the workload (the record key is its {@code namespace/kind/name})
 * @param tenant      the tenant of the booking the keep is charged to
 * @param requestId   the keep request's id (the {@code KeepWorkload}'s), unique per request
 * @param hours       how long to keep the workload, in whole hours (at least 1)
 * @param requestedBy the authenticated subject that answered
 * @param time        when booking-service's decision engine granted it: the keep counts from here
 */
public record KeepRequested(
        WorkloadRef workload, String tenant, String requestId, int hours, String requestedBy, Instant time) {}
