package io.gpuaas.events.reclaim;

import java.time.Instant;

/**
 * A team's answer to a {@code ReclaimPending}: "keep this workload for {@code hours} more hours". The values of
 * {@code gpuaas.reclaim-keeps}, keyed by workload ({@link WorkloadRef#key()}), written by idle-reclaimer's HTTP edge
 * once the caller's ownership and the bounds were checked, and read by its stream, which decides the keep in the same
 * exactly-once transaction as the workload's idle windows: the reclaim is not requested before {@code time + hours}
 * (after any keep still running), and a {@code ReclaimKept} on {@code gpuaas.reclaim-events} says what was granted.
 *
 * @param workload    the workload (the record key is its {@code namespace/kind/name})
 * @param tenant      the tenant owning the namespace, may be null (an admin's answer for a namespace without one)
 * @param requestId   the edge's id of the answer, unique per request
 * @param hours       how long to keep the workload, in whole hours (at least 1)
 * @param requestedBy the authenticated subject that answered
 * @param time        when the edge accepted the answer: the keep counts from here
 */
public record KeepRequested(
        WorkloadRef workload, String tenant, String requestId, int hours, String requestedBy, Instant time) {}
