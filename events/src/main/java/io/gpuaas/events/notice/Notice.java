package io.gpuaas.events.notice;

import io.gpuaas.events.IdentifiedEvent;
import io.gpuaas.events.booking.BookingEvent.BookingApprovalDecided.Outcome;
import io.gpuaas.events.reclaim.WorkloadRef;
import java.time.Duration;
import java.time.Instant;

/**
 * A heads-up to a tenant about something that happens to its capacity unless it acts; the values of
 * {@code gpuaas.notices}. Booking notices are keyed by booking id, workload notices by {@code namespace/kind/name}. Each notice is emitted once (its writer decides
 * and writes it in one exactly-once transaction) and carries a deterministic {@link #noticeId()}; the record's
 * {@code ce_id} is a name-based UUID of it, so a consumer that delivers notices (Kubernetes Events, webhooks) can also
 * drop a copy it has seen.
 */
public sealed interface Notice extends IdentifiedEvent
        permits Notice.BookingEndingSoon,
                Notice.NoShowWarning,
                Notice.ReclaimPending,
                Notice.MigLayoutNotReady,
                Notice.ApprovalDecided,
                Notice.BookingAwaitingApproval,
                Notice.WaitlistBooked,
                Notice.WaitlistExpired,
                Notice.BookingUnderused,
                Notice.BudgetThresholdReached {

    /** The notice's own id: what it is about and when, the same for every copy (see {@link #endingSoonId}). */
    String noticeId();

    /** The tenant the notice is for. */
    String tenant();

    /** When the notice was decided. */
    Instant time();

    @Override
    default String eventId() {
        return noticeId();
    }

    /** {@code <bookingId>/booking-ending-soon/<lead>@<endsAt>}: one per lead and end, so an extension warns again. */
    static String endingSoonId(String bookingId, Duration lead, Instant endsAt) {
        return bookingId + "/booking-ending-soon/" + lead + "@" + endsAt;
    }

    /** {@code <bookingId>/no-show-warning}: a booking is warned of its no-show release at most once. */
    static String noShowWarningId(String bookingId) {
        return bookingId + "/no-show-warning";
    }

    /**
     * {@code <namespace/kind/name>/reclaim-pending@<idleSince>}: one per idle window of a workload; its next idle
     * run, after a busy sample, starts later and gets its own.
     */
    static String reclaimPendingId(WorkloadRef workload, Instant idleSince) {
        return workload.key() + "/reclaim-pending@" + idleSince;
    }

    /**
     * {@code <bookingId>/mig-layout-not-ready@<start>}: a booking's window is warned at most once that its GPUs' layout
     * is not ready, whatever the state goes through; a booking moved to another start is a new window.
     */
    static String migLayoutNotReadyId(String bookingId, Instant start) {
        return bookingId + "/mig-layout-not-ready@" + start;
    }

    /** {@code <bookingId>/awaiting-approval}: a booking enters PENDING_APPROVAL once (at its creation). */
    static String awaitingApprovalId(String bookingId) {
        return bookingId + "/awaiting-approval";
    }

    /**
     * {@code <tenant>/<yyyy-MM>/budget-threshold/<percent>}: each threshold of a tenant's month is told once, however
     * often its figures cross it.
     */
    static String budgetThresholdId(String tenant, String month, int percent) {
        return tenant + "/" + month + "/budget-threshold/" + percent;
    }

    /** {@code <bookingId>/approval-decided}: a booking awaits approval once, so it is decided once. */
    static String approvalDecidedId(String bookingId) {
        return bookingId + "/approval-decided";
    }

    /**
     * A booking that awaited approval was approved (it is CONFIRMED and runs its window as usual), denied by an admin,
     * or expired because nobody decided within its pool's approval hold (both DENIED: its units are free again). Sent
     * by booking-service's decision engine in the same transaction as the decision, so once.
     *
     * @param noticeId  {@link #approvalDecidedId}
     * @param bookingId the booking (the record key)
     * @param tenant    its tenant
     * @param namespace the namespace the booking is for
     * @param pool      its pool
     * @param quantity  units of the pool it asked for
     * @param start     its window's start
     * @param end       its window's end
     * @param outcome   APPROVED, DENIED or EXPIRED
     * @param decidedBy the admin's subject, or null when it expired
     * @param reason    the admin's words, or null
     * @param time      when it was decided
     */
    record ApprovalDecided(
            String noticeId,
            String bookingId,
            String tenant,
            String namespace,
            String pool,
            int quantity,
            Instant start,
            Instant end,
            Outcome outcome,
            String decidedBy,
            String reason,
            Instant time)
            implements Notice {}
    /**
     * A booking over its pool's approval threshold waits for an admin: it is PENDING_APPROVAL, its units are kept from
     * everyone else, and unless an admin approves or denies it first it expires (DENIED) at {@code holdUntil}. Sent by
     * booking-service's decision engine in the same transaction as the decision that put it there (a create, a
     * waitlisted request booked, a series' occurrence), so once; what follows is an {@link ApprovalDecided}.
     *
     * @param noticeId  {@link #awaitingApprovalId}
     * @param bookingId the booking (the record key)
     * @param tenant    its tenant
     * @param namespace the namespace the booking is for
     * @param pool      its pool
     * @param quantity  units of the pool it asks for
     * @param start     its window's start
     * @param end       its window's end
     * @param unitHours its size as the pool's threshold measures it
     * @param threshold the pool's threshold it is over
     * @param holdUntil when it expires unless an admin decides: the pool's hold after the decision, never past start
     * @param time      when it was decided
     */
    record BookingAwaitingApproval(
            String noticeId,
            String bookingId,
            String tenant,
            String namespace,
            String pool,
            int quantity,
            Instant start,
            Instant end,
            double unitHours,
            double threshold,
            Instant holdUntil,
            Instant time)
            implements Notice {}

    /** {@code <bookingId>/waitlist-booked}: a waitlist entry is booked at most once. */
    static String waitlistBookedId(String bookingId) {
        return bookingId + "/waitlist-booked";
    }

    /** {@code <entryId>/waitlist-expired}: a waitlist entry expires at most once. */
    static String waitlistExpiredId(String entryId) {
        return entryId + "/waitlist-expired";
    }

    /**
     * {@code <bookingId>/booking-underused@<since>}: at most one per booking and suppression period, {@code since}
     * being the start of the period ({@code booking start + n × suppression}) the notice falls in.
     */
    static String underusedId(String bookingId, Instant since) {
        return bookingId + "/booking-underused@" + since;
    }

    /**
     * An ACTIVE booking ends in {@code lead}: its quota goes at {@code endsAt} and Kueue drains the tenant's queue.
     * Sent once per configured lead (booking-service, {@code gpuaas.booking.lifecycle.ending-soon-leads}), unless the
     * lead had already passed when the booking became active with this end. A booking extended or shortened while
     * active is warned again before its new end.
     *
     * @param noticeId  {@link #endingSoonId}
     * @param bookingId the booking (the record key)
     * @param tenant    its tenant
     * @param namespace the namespace the booking is for
     * @param pool      its pool
     * @param quantity  units of the pool it holds
     * @param endsAt    when its window ends
     * @param lead      how long before {@code endsAt} the notice was due
     * @param time      when it was decided (at or shortly after {@code endsAt - lead})
     */
    record BookingEndingSoon(
            String noticeId,
            String bookingId,
            String tenant,
            String namespace,
            String pool,
            int quantity,
            Instant endsAt,
            Duration lead,
            Instant time)
            implements Notice {}

    /**
     * An ACTIVE booking has had no Workload of its tenant admitted or pending on its pool's flavor and resource since
     * it began, for half of its pool's no-show grace: unless one comes, it is released at {@code releaseAt} (a
     * {@code BookingReleased} with reason {@code NO_SHOW} on {@code gpuaas.booking-events}) and its units go back to
     * the cohort. Sent at most once per booking.
     *
     * @param noticeId    {@link #noShowWarningId}
     * @param bookingId   the booking (the record key)
     * @param tenant      its tenant
     * @param namespace   the namespace the booking is for
     * @param pool        its pool
     * @param quantity    units of the pool it holds
     * @param activeSince from when the grace is counted (the booking's start, or when booking-service first watched it)
     * @param releaseAt   when it will be released unless a Workload comes
     * @param grace       the pool's no-show grace
     * @param time        when it was decided (at or shortly after half the grace)
     */
    record NoShowWarning(
            String noticeId,
            String bookingId,
            String tenant,
            String namespace,
            String pool,
            int quantity,
            Instant activeSince,
            Instant releaseAt,
            Duration grace,
            Instant time)
            implements Notice {}

    /**
     * A workload has been idle for 80 % of its idle window: unless a device gets busy, idle-reclaimer scales its GPU
     * workers to zero at about {@code reclaimAt} (a {@code Reclaimed} on {@code gpuaas.reclaim-events}). Decided by
     * the same rule as the reclaim (every device at or under the threshold, enough samples, after the warm-up) over
     * the part of the window that has passed; sent once per idle window, only when the reclaim would write (direct
     * mode, not dry-run, not opted out). A busy sample ends the window: no reclaim, and its next idle run is a new
     * window with a notice of its own.
     *
     * @param noticeId  {@link #reclaimPendingId}
     * @param tenant    the workload's tenant
     * @param namespace the workload's namespace
     * @param workload  the workload (the record key is its {@code namespace/kind/name})
     * @param windowId  {@code namespace/kind/name@<idleSince>}: the window id the reclaim carries when the run goes on
     *                  without a gap (a gap in the samples delays the reclaim and moves its window start)
     * @param idleSince when the window began: the last device's idle run, or the end of the warm-up if later
     * @param reclaimAt the projected reclaim: {@code idleSince + window}
     * @param window    the workload's idle window (policy)
     * @param time      when it was decided (the time of the sample at 80 % of the window)
     * @param keep      booking-service's API path that answers the notice with "keep it" ({@code POST}, body
     *                  {@code {"hours": n}}), relative to its base URL: it charges the booking active in the
     *                  namespace and bounds it by the pool's keep policy; null on notices written before it was added
     */
    record ReclaimPending(
            String noticeId,
            String tenant,
            String namespace,
            WorkloadRef workload,
            String windowId,
            Instant idleSince,
            Instant reclaimAt,
            Duration window,
            Instant time,
            String keep)
            implements Notice {

        /** A notice without the keep link (as written before it was added). */
        public ReclaimPending(
                String noticeId,
                String tenant,
                String namespace,
                WorkloadRef workload,
                String windowId,
                Instant idleSince,
                Instant reclaimAt,
                Duration window,
                Instant time) {
            this(noticeId, tenant, namespace, workload, windowId, idleSince, reclaimAt, window, time, null);
        }

        /**
         * {@code /api/v1/workloads/<namespace>/<kind>/<name>/keep}: where the owner answers "keep it", on
         * booking-service (idle-reclaimer serves no keep path: it takes keeps only from booking-service's decisions).
         */
        public static String keepPath(WorkloadRef workload) {
            return "/api/v1/workloads/" + workload.namespace() + "/" + workload.kind() + "/" + workload.name()
                    + "/keep";
        }
    }

    /**
     * The MIG layout a flexible booking's units need is not in force on one of its nodes: the MIG manager reported
     * {@code failed}, or the change is still pending or blocked (a running GPU pod or an active booking on a GPU that
     * must change) within quota-projector's margin before the window starts. Quota still follows the booking at its
     * start, but Kueue only admits onto instances that exist, so the tenant's Workloads may stay pending. Sent by
     * quota-projector at most once per booking and window ({@link #migLayoutNotReadyId}).
     *
     * @param noticeId  {@link #migLayoutNotReadyId}
     * @param bookingId the booking (the record key)
     * @param tenant    its tenant
     * @param namespace the namespace the booking is for
     * @param pool      its (flexible) pool
     * @param node      the node whose layout is not ready
     * @param state     {@code failed}, {@code pending} or {@code blocked}
     * @param reason    why, in words (the MIG manager's state, or what holds the GPU)
     * @param startsAt  when the booking's window starts
     * @param time      when quota-projector decided the notice
     */
    record MigLayoutNotReady(
            String noticeId,
            String bookingId,
            String tenant,
            String namespace,
            String pool,
            String node,
            String state,
            String reason,
            Instant startsAt,
            Instant time)
            implements Notice {}

    /**
     * A request that waited on the waitlist was booked: capacity freed on its pool (a cancel, an early end, a no-show
     * release, a flexible layout change) and it fit. Sent by booking-service's decision engine in the same transaction
     * as the booking's {@code BookingConfirmed}, once per entry.
     *
     * @param noticeId     {@link #waitlistBookedId}
     * @param bookingId    the booking (the entry's id; the record key)
     * @param tenant       its tenant
     * @param namespace    the namespace the booking is for
     * @param pool         its pool
     * @param quantity     units booked
     * @param start        the booking's start
     * @param end          the booking's end
     * @param waitingSince when the request was put on the waitlist
     * @param time         when it was booked
     */
    record WaitlistBooked(
            String noticeId,
            String bookingId,
            String tenant,
            String namespace,
            String pool,
            int quantity,
            Instant start,
            Instant end,
            Instant waitingSince,
            Instant time)
            implements Notice {}

    /**
     * A request on the waitlist reached its latest start without room: it is no longer waiting and nothing was
     * booked. Sent by booking-service's decision engine once per entry.
     *
     * @param noticeId     {@link #waitlistExpiredId}
     * @param bookingId    the entry's id (the booking it would have become; the record key)
     * @param tenant       its tenant
     * @param namespace    the namespace it was for
     * @param pool         its pool
     * @param quantity     units asked for
     * @param latestStart  the latest start it accepted
     * @param waitingSince when the request was put on the waitlist
     * @param time         when it expired
     */
    record WaitlistExpired(
            String noticeId,
            String bookingId,
            String tenant,
            String namespace,
            String pool,
            int quantity,
            Instant latestStart,
            Instant waitingSince,
            Instant time)
            implements Notice {}

    /**
     * An ACTIVE booking's GPUs were barely used over the last {@code window}: their busy share (device time above the
     * idle threshold over the booked unit time, MIG slices weighted by their share of a GPU) stayed under
     * {@code threshold}. The capacity is held from everyone else while it sits idle; the team may end the booking
     * early or put it to work. Sent by metrics-gateway's Lease holder at most once per booking and suppression period
     * ({@link #underusedId}).
     *
     * @param noticeId    {@link #underusedId}
     * @param bookingId   the booking (the record key)
     * @param tenant      its tenant
     * @param namespace   the namespace the booking is for
     * @param pool        its pool
     * @param quantity    units of the pool it holds
     * @param busyShare   busy GPU-hours over booked GPU-hours in the window, 0..1
     * @param threshold   the share under which a booking is under-used
     * @param busyGpuHours busy GPU-hours of the booking in the window
     * @param bookedGpuHours booked GPU-hours of the booking in the window
     * @param windowStart the window's start (whole minute)
     * @param window      the window's length
     * @param time        when it was decided (the window's end)
     */
    record BookingUnderused(
            String noticeId,
            String bookingId,
            String tenant,
            String namespace,
            String pool,
            int quantity,
            double busyShare,
            double threshold,
            double busyGpuHours,
            double bookedGpuHours,
            Instant windowStart,
            Duration window,
            Instant time)
            implements Notice {}

    /**
     * A tenant's confirmed bookings of a UTC month reached {@code percent} (50, 80 or 100) of its budget for that
     * month. Sent by booking-service's budget stage in the transaction that booked it, once per tenant, month and
     * threshold ({@link #budgetThresholdId}); keyed by {@code <tenant>/<yyyy-MM>}.
     *
     * @param noticeId {@link #budgetThresholdId}
     * @param tenant   the tenant
     * @param month    the UTC month, {@code yyyy-MM}
     * @param percent  the threshold reached: 50, 80 or 100
     * @param unit     what the budget counts
     * @param limit    the budget
     * @param currency ISO 4217 code of a cost budget; null for GPU-hours
     * @param booked   what the month's confirmed bookings hold now
     * @param time     when it was decided
     */
    record BudgetThresholdReached(
            String noticeId,
            String tenant,
            String month,
            int percent,
            io.gpuaas.events.budget.TenantBudget.Unit unit,
            java.math.BigDecimal limit,
            String currency,
            java.math.BigDecimal booked,
            Instant time)
            implements Notice {}
}
