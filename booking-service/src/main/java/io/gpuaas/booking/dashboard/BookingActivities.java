package io.gpuaas.booking.dashboard;

import io.gpuaas.booking.dashboard.BookingActivity.BookingNotice;
import io.gpuaas.booking.dashboard.BookingActivity.WorkloadStatus;
import io.gpuaas.booking.dashboard.WorkloadPresenceReader.KueueWorkload;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.notice.Notice;
import io.gpuaas.events.notice.Notice.BookingEndingSoon;
import io.gpuaas.events.notice.Notice.BookingUnderused;
import io.gpuaas.events.notice.Notice.MigLayoutNotReady;
import io.gpuaas.events.notice.Notice.NoShowWarning;
import io.gpuaas.events.notice.Notice.ReclaimPending;
import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.events.reclaim.ReclaimEvent.IdleDetected;
import io.gpuaas.events.reclaim.ReclaimEvent.ReclaimFailed;
import io.gpuaas.events.reclaim.ReclaimEvent.ReclaimKept;
import io.gpuaas.events.reclaim.ReclaimEvent.ReclaimSkipped;
import io.gpuaas.events.reclaim.ReclaimEvent.Reclaimed;
import io.gpuaas.events.reclaim.ReclaimEvent.Resumed;
import io.gpuaas.events.reclaim.WorkloadRef;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Puts together what runs under a booking: the Kueue Workloads on its cells while it is ACTIVE, the workloads of its
 * namespace idle-reclaimer acted on (or warned of) within its window, and its own notices while they still apply.
 */
public final class BookingActivities {

    /** A booking id as booking-service makes them: a random UUID. */
    private static final Pattern BOOKING_ID =
            Pattern.compile("\\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\\b");

    private final WorkloadPresenceReader presence;
    private final WorkloadActivity activity;
    private final Duration endingSoonLead;

    /** @param endingSoonLead the lifecycle's longest ending-soon lead: the page warns from end − lead on */
    public BookingActivities(WorkloadPresenceReader presence, WorkloadActivity activity, Duration endingSoonLead) {
        this.presence = presence;
        this.activity = activity;
        this.endingSoonLead = endingSoonLead;
    }

    public BookingActivity of(Booking booking, Instant now) {
        boolean active = booking.state() == BookingState.ACTIVE;
        List<WorkloadStatus> workloads = new ArrayList<>();
        Optional<List<KueueWorkload>> kueue = active ? presence.under(booking) : Optional.of(List.of());
        kueue.orElse(List.of())
                .forEach(w -> workloads.add(new WorkloadStatus(
                        w.namespace(),
                        "Workload",
                        w.name(),
                        w.admitted() ? "ADMITTED" : "PENDING",
                        null,
                        null,
                        null,
                        false)));
        workloads.addAll(reclaimable(booking, now));
        List<BookingNotice> notices = booking.state().holdsCapacity() || booking.state() == BookingState.DENIED
                ? notices(booking)
                : List.of();
        return new BookingActivity(
                booking.id(),
                booking.state().name(),
                workloads,
                notices,
                kueue.isPresent(),
                active ? booking.end().minus(endingSoonLead) : null);
    }

    /** One row per workload of the booking's namespace that idle-reclaimer acted on or warned of in the window. */
    private List<WorkloadStatus> reclaimable(Booking booking, Instant now) {
        Map<String, WorkloadStatus> rows = new LinkedHashMap<>();
        activity.reclaimsIn(booking.namespace()).stream()
                .filter(e -> within(booking, e.time()))
                .sorted(Comparator.comparing(ReclaimEvent::time))
                .forEach(e -> rows.put(e.workload().key(), status(e)));
        for (ReclaimPending pending : activity.reclaimPendingIn(booking.namespace())) {
            WorkloadStatus row = rows.get(pending.workload().key());
            boolean newer = row == null || row.since() == null || pending.time().isAfter(row.since());
            if (!within(booking, pending.time())
                    || !newer
                    || !pending.reclaimAt().isAfter(now)) {
                continue;
            }
            WorkloadRef w = pending.workload();
            rows.put(
                    w.key(),
                    new WorkloadStatus(
                            w.namespace(),
                            w.kind(),
                            w.name(),
                            "IDLE",
                            null,
                            pending.idleSince(),
                            pending.reclaimAt(),
                            false));
        }
        return List.copyOf(rows.values());
    }

    private static WorkloadStatus status(ReclaimEvent event) {
        WorkloadRef w = event.workload();
        return switch (event) {
            case IdleDetected e -> row(w, "IDLE", null, e.idleSince(), false);
            case Reclaimed e ->
                row(
                        w,
                        "RECLAIMED",
                        "idle for " + e.idleSeconds() / 60 + " min: " + e.action() + (e.dryRun() ? " (dry run)" : ""),
                        e.time(),
                        !e.dryRun());
            case Resumed e ->
                row(w, "RESUMED", e.requestedBy() == null ? null : "by " + e.requestedBy(), e.time(), false);
            case ReclaimSkipped e -> row(w, "SKIPPED", e.reason() + ": " + e.message(), e.time(), false);
            case ReclaimFailed e -> row(w, "FAILED", e.reason() + ": " + e.message(), e.time(), false);
            case ReclaimKept e ->
                row(w, "KEPT", "kept until " + e.keptUntil() + " by " + e.requestedBy(), e.time(), false);
        };
    }

    private static WorkloadStatus row(WorkloadRef w, String state, String reason, Instant since, boolean resumable) {
        return new WorkloadStatus(w.namespace(), w.kind(), w.name(), state, reason, since, null, resumable);
    }

    /**
     * The notices that still apply to a CONFIRMED, ACTIVE or DENIED booking: how its approval went, an ending-soon for its current end, a no-show
     * warning (both only ever sent while it is ACTIVE), and a MIG layout not ready for its current start (quota-
     * projector sends it before the window, so an upcoming booking shows it too; no notice says when the layout
     * comes into force, so it stays while the booking lasts).
     */
    private List<BookingNotice> notices(Booking booking) {
        List<BookingNotice> notices = new ArrayList<>();
        for (Notice notice : activity.bookingNotices(booking.id())) {
            switch (notice) {
                case BookingEndingSoon n
                when n.endsAt().equals(booking.end()) ->
                    notices.add(new BookingNotice("ENDING_SOON", n.time(), n.endsAt()));
                case NoShowWarning n -> notices.add(new BookingNotice("NO_SHOW_WARNING", n.time(), n.releaseAt()));
                case BookingUnderused n ->
                    notices.add(new BookingNotice(
                            "UNDERUSED",
                            n.time(),
                            n.windowStart(),
                            null,
                            null,
                            Math.round(n.busyShare() * 100) + " % of the booked GPU time busy over the last "
                                    + n.window().toMinutes() + " min"));
                case MigLayoutNotReady n
                when n.startsAt().equals(booking.start()) ->
                    notices.add(new BookingNotice(
                            "MIG_LAYOUT_NOT_READY",
                            n.time(),
                            n.startsAt(),
                            n.node(),
                            n.state(),
                            withoutOtherBookings(n.reason(), booking.id())));
                // How its approval went (approved, denied or expired), with the admin's words.
                case Notice.ApprovalDecided n ->
                    notices.add(new BookingNotice(
                            "APPROVAL_" + n.outcome().name(), n.time(), n.start(), null, null, n.reason()));
                case Notice.WaitlistBooked n ->
                    notices.add(new BookingNotice("WAITLIST_BOOKED", n.time(), n.waitingSince()));
                default -> {
                    // an ending-soon for an end the booking no longer has, a layout notice for a start it no longer
                    // has (it was moved), or a workload notice
                }
            }
        }
        return notices;
    }

    /**
     * {@code reason} with every booking id but {@code own} replaced by "…": quota-projector names the active booking
     * that holds a GPU, which may be another tenant's, and a tenant never learns another tenant's booking exists.
     */
    static String withoutOtherBookings(String reason, String own) {
        if (reason == null) {
            return null;
        }
        return BOOKING_ID.matcher(reason).replaceAll(m -> m.group().equals(own) ? Matcher.quoteReplacement(own) : "…");
    }

    private static boolean within(Booking booking, Instant t) {
        return !t.isBefore(booking.start()) && t.isBefore(booking.end());
    }
}
