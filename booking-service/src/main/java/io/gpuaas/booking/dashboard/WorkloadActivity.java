package io.gpuaas.booking.dashboard;

import io.gpuaas.events.notice.Notice;
import io.gpuaas.events.notice.Notice.BookingEndingSoon;
import io.gpuaas.events.notice.Notice.BookingUnderused;
import io.gpuaas.events.notice.Notice.MigLayoutNotReady;
import io.gpuaas.events.notice.Notice.NoShowWarning;
import io.gpuaas.events.notice.Notice.ReclaimPending;
import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.events.reclaim.WorkloadRef;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the dashboard shows beside the bookings, projected from two topics by the {@code dashboard-feed} replica: the
 * latest step of idle-reclaimer per workload ({@code gpuaas.reclaim-events}, keyed {@code namespace/kind/name}) and the
 * latest notice of each kind per booking or workload ({@code gpuaas.notices}: booking-service's ending-soon and no-show
 * warnings, quota-projector's MIG layout not ready, idle-reclaimer's reclaim pending). Records come in partition order and
 * each topic is keyed by what it is about, so the last one applied for a key is that key's latest. Workload steps and
 * reclaim notices are kept per namespace, so a request reads only its booking's namespace, never every tenant's.
 */
public final class WorkloadActivity {

    /** namespace → workload key → its latest reclaim step. */
    private final Map<String, Map<String, ReclaimEvent>> reclaims = new ConcurrentHashMap<>();

    private final Map<String, BookingEndingSoon> endingSoon = new ConcurrentHashMap<>();
    private final Map<String, NoShowWarning> noShow = new ConcurrentHashMap<>();
    private final Map<String, MigLayoutNotReady> layoutNotReady = new ConcurrentHashMap<>();
    private final Map<String, Notice.ApprovalDecided> approvals = new ConcurrentHashMap<>();
    private final Map<String, Notice.WaitlistBooked> waitlistBooked = new ConcurrentHashMap<>();
    private final Map<String, BookingUnderused> underused = new ConcurrentHashMap<>();
    /** namespace → the keeps granted there lately (every one, not the latest: a day's answers add up). */
    /** namespace → workload key → its latest ReclaimPending. */
    private final Map<String, Map<String, ReclaimPending>> reclaimPending = new ConcurrentHashMap<>();

    /** A record of {@code gpuaas.reclaim-events}; null (a tombstone, which this topic should never carry) is ignored. */
    public void applyReclaim(String key, ReclaimEvent event) {
        if (event != null) {
            WorkloadRef w = event.workload();
            reclaims.computeIfAbsent(w.namespace(), n -> new ConcurrentHashMap<>())
                    .put(w.key(), event);
        }
    }

    /** A record of {@code gpuaas.notices}. */
    public void applyNotice(String key, Notice notice) {
        if (notice == null) {
            return;
        }
        switch (notice) {
            case BookingEndingSoon n -> endingSoon.put(n.bookingId(), n);
            case NoShowWarning n -> noShow.put(n.bookingId(), n);
            case ReclaimPending n ->
                reclaimPending
                        .computeIfAbsent(n.namespace(), ns -> new ConcurrentHashMap<>())
                        .put(n.workload().key(), n);
            case MigLayoutNotReady n -> layoutNotReady.put(n.bookingId(), n);
            case Notice.ApprovalDecided n -> approvals.put(n.bookingId(), n);
            case Notice.BookingAwaitingApproval n -> {} // the booking's own state says it (PENDING_APPROVAL)
            case Notice.WaitlistBooked n -> waitlistBooked.put(n.bookingId(), n);
            case Notice.WaitlistExpired n -> {} // the entry's own state says it (WaitlistView)
            case BookingUnderused n -> underused.put(n.bookingId(), n);
            case Notice.BudgetThresholdReached n -> {} // about a tenant's month, not a booking or workload
        }
    }

    /** The latest reclaim step of every workload in {@code namespace}. */
    public List<ReclaimEvent> reclaimsIn(String namespace) {
        return List.copyOf(reclaims.getOrDefault(namespace, Map.of()).values());
    }

    /** The latest ReclaimPending of every workload in {@code namespace}. */
    public List<ReclaimPending> reclaimPendingIn(String namespace) {
        return List.copyOf(reclaimPending.getOrDefault(namespace, Map.of()).values());
    }

    /**
     * The booking notices of {@code bookingId}: its latest ending-soon, no-show warning, MIG layout not ready and
     * approval outcome, waitlist booking and under-use notice, where there are any.
     */
    public List<Notice> bookingNotices(String bookingId) {
        return java.util.stream.Stream.<Notice>of(
                        endingSoon.get(bookingId),
                        noShow.get(bookingId),
                        layoutNotReady.get(bookingId),
                        approvals.get(bookingId),
                        waitlistBooked.get(bookingId),
                        underused.get(bookingId))
                .filter(java.util.Objects::nonNull)
                .toList();
    }
}
