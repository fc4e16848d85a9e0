package io.gpuaas.quota.model;

import io.gpuaas.events.notice.Notice;
import java.time.Instant;
import java.util.Optional;

/**
 * How one booking notice is shown on the cluster: the Event's reason and message, the annotation that carries the
 * projected time, and where. An ending-soon notice goes on the tenant's Workloads in the booking's LocalQueue (pending
 * or admitted: those the end drains) and on that LocalQueue; a no-show warning has no Workload by definition, so it
 * goes on the LocalQueue and the tenant's ClusterQueue.
 *
 * @param noticeId    the notice's id (Event names derive from it)
 * @param bookingId   the booking
 * @param tenant      its tenant (the ClusterQueue {@code gpuaas-<tenant>})
 * @param namespace   the namespace of the booking (its LocalQueue)
 * @param reason      the Event's reason, the notice's type
 * @param annotation  the annotation key whose value is {@link #at}
 * @param at          the projected time: the end, or the no-show release
 * @param message     the Event's message
 * @param decidedAt   when the notice was decided (a later one of the same annotation wins)
 * @param onWorkloads shown on the Workloads of the LocalQueue
 * @param onClusterQueue shown on the ClusterQueue
 */
public record BookingNotice(
        String noticeId,
        String bookingId,
        String tenant,
        String namespace,
        String reason,
        String annotation,
        Instant at,
        String message,
        Instant decidedAt,
        boolean onWorkloads,
        boolean onClusterQueue) {

    public static final String ENDS_AT = "gpuaas.io/booking-ends-at";
    public static final String NO_SHOW_RELEASE_AT = "gpuaas.io/no-show-release-at";

    /** The booking notice shown for {@code notice}; empty for a workload notice (idle-reclaimer shows those). */
    public static Optional<BookingNotice> of(Notice notice) {
        return switch (notice) {
            case Notice.BookingEndingSoon n ->
                Optional.of(new BookingNotice(
                        n.noticeId(),
                        n.bookingId(),
                        n.tenant(),
                        n.namespace(),
                        "BookingEndingSoon",
                        ENDS_AT,
                        n.endsAt(),
                        ("Booking %s (%d of pool %s) ends at %s, in %s: its quota goes then and Kueue drains"
                                        + " what still runs on it")
                                .formatted(n.bookingId(), n.quantity(), n.pool(), n.endsAt(), n.lead()),
                        n.time(),
                        true,
                        false));
            case Notice.NoShowWarning n ->
                Optional.of(new BookingNotice(
                        n.noticeId(),
                        n.bookingId(),
                        n.tenant(),
                        n.namespace(),
                        "NoShowWarning",
                        NO_SHOW_RELEASE_AT,
                        n.releaseAt(),
                        ("Booking %s (%d of pool %s) has had no Workload since %s: it is released as a no-show at %s"
                                        + " unless one is submitted to this queue")
                                .formatted(n.bookingId(), n.quantity(), n.pool(), n.activeSince(), n.releaseAt()),
                        n.time(),
                        false,
                        true));
            case Notice.ReclaimPending n -> Optional.empty();
            case Notice.MigLayoutNotReady n -> Optional.empty(); // ours; MigNoticeLedger remembers it
            case Notice.ApprovalDecided n -> Optional.empty(); // about a booking before it holds quota
            // For the tenant (webhooks, dashboard); a booked entry's quota comes at its start like any booking's.
            case Notice.WaitlistBooked n -> Optional.empty();
            case Notice.WaitlistExpired n -> Optional.empty();
            case Notice.BookingUnderused n -> Optional.empty(); // for the tenant's webhooks and dashboard only
            case Notice.BudgetThresholdReached n -> Optional.empty(); // about a tenant's month, not a booking
        };
    }

    /** Whether the projected time has come: nothing is announced any more, and the annotation goes. */
    public boolean over(Instant now) {
        return !now.isBefore(at);
    }
}
