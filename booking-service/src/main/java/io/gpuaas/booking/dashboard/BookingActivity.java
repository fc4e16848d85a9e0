package io.gpuaas.booking.dashboard;

import io.micronaut.core.annotation.Introspected;
import io.micronaut.core.annotation.Nullable;
import java.time.Instant;
import java.util.List;

/**
 * What the dashboard shows under one booking.
 *
 * @param bookingId  the booking
 * @param state      its state
 * @param workloads  Kueue Workloads using it now, and the reclaimable workloads idle-reclaimer acted on in its window
 * @param notices    its current notices (ending soon, no-show warning, MIG layout not ready)
 * @param workloadsKnown false when the Kueue Workloads could not be read right now (the engine is restoring)
 * @param endingSoonFrom while ACTIVE: from when it counts as ending soon (its end less the longest ending-soon lead)
 */
@Introspected
public record BookingActivity(
        String bookingId,
        String state,
        List<WorkloadStatus> workloads,
        List<BookingNotice> notices,
        boolean workloadsKnown,
        @Nullable Instant endingSoonFrom) {

    /**
     * One workload.
     *
     * @param namespace its namespace
     * @param kind      {@code Workload} (Kueue), {@code RayCluster} or {@code InferenceService} (idle-reclaimer)
     * @param name      its name
     * @param state     PENDING, ADMITTED (Kueue); IDLE, RECLAIMED, RESUMED, SKIPPED, FAILED (idle-reclaimer)
     * @param reason    why, in words (reclaim reason, skip reason), or null
     * @param since     when it entered the state, where known (for IDLE: since when it has been idle)
     * @param reclaimAt the projected reclaim of a pending ReclaimPending notice, or null
     * @param resumable whether Resume applies (reclaimed for real, not a dry run)
     */
    @Introspected
    public record WorkloadStatus(
            String namespace,
            String kind,
            String name,
            String state,
            @Nullable String reason,
            @Nullable Instant since,
            @Nullable Instant reclaimAt,
            boolean resumable) {}

    /**
     * A notice of the booking.
     *
     * @param type   ENDING_SOON, NO_SHOW_WARNING or MIG_LAYOUT_NOT_READY
     * @param time   when it was sent
     * @param at     the end (ending soon), the release (no-show warning) or the window's start (MIG layout) it
     *               warns of
     * @param node   MIG layout: the node whose layout is not in force; otherwise null
     * @param state  MIG layout: {@code failed}, {@code pending} or {@code blocked}; otherwise null
     * @param reason MIG layout: why, in words (booking ids other than this booking's left out); otherwise null
     */
    @Introspected
    public record BookingNotice(
            String type,
            Instant time,
            Instant at,
            @Nullable String node,
            @Nullable String state,
            @Nullable String reason) {

        /** A lifecycle notice (ending soon, no-show warning): a type, when it was sent and what it warns of. */
        public BookingNotice(String type, Instant time, Instant at) {
            this(type, time, at, null, null, null);
        }
    }
}
