package io.gpuaas.events.booking;

import io.gpuaas.events.budget.BudgetFigures;
import io.gpuaas.events.reclaim.WorkloadRef;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;

/** What happened to a booking; the values of {@code gpuaas.booking-events}, keyed by booking id. */
public sealed interface BookingEvent
        permits BookingEvent.BookingConfirmed,
                BookingEvent.BookingRejected,
                BookingEvent.BookingCancelled,
                BookingEvent.BookingExtended,
                BookingEvent.BookingActivated,
                BookingEvent.BookingCompleted,
                BookingEvent.BookingReleased,
                BookingEvent.BookingMoved,
                BookingEvent.BookingPendingApproval,
                BookingEvent.BookingApprovalDecided,
                BookingEvent.SeriesDecided,
                BookingEvent.SeriesCancelled,
                BookingEvent.BookingWaitlisted,
                BookingEvent.WaitlistEnded,
                BookingEvent.WorkloadKeepDecided {

    /** The booking id (the record key). */
    String bookingId();

    /** When the decision engine decided. */
    Instant time();

    /**
     * The command this event answers (its HTTP caller waits for it), or null when the lifecycle clock caused it (an
     * activation at the start, a completion).
     */
    String requestId();

    /**
     * A create request was accepted; {@code booking} is in state CONFIRMED.
     *
     * @param requestId the command that caused this event, or null when the system caused it
     * @param booking   the booking as confirmed
     * @param time      when the decision engine decided
     */
    record BookingConfirmed(String requestId, Booking booking, Instant time) implements BookingEvent {
        public String bookingId() {
            return booking.id();
        }
    }

    /**
     * A create, change or cancel request was refused.
     *
     * @param reason        machine-readable rule, e.g. {@code CAPACITY}, {@code POLICY_MAX_DURATION}, {@code NOT_FOUND}
     * @param message       human-readable explanation
     * @param conflicts     the intervals of the requested window where capacity was short (empty when not a capacity rejection)
     * @param earliestStart the earliest start at which the same quantity and duration would fit, or null
     * @param requestId     the refused command
     * @param bookingId     the booking the command named
     * @param pool          the pool of the command
     * @param tenant        the caller's tenant
     * @param time          when the decision engine decided
     * @param budget        for {@code BUDGET_EXCEEDED}, the month's budget, what is booked and held and what the
     *                      request needs; else null
     */
    record BookingRejected(
            String requestId,
            String bookingId,
            String pool,
            String tenant,
            String reason,
            String message,
            List<Interval> conflicts,
            Instant earliestStart,
            Instant time,
            BudgetFigures budget)
            implements BookingEvent {

        /** A refusal that is not about a budget. */
        public BookingRejected(
                String requestId,
                String bookingId,
                String pool,
                String tenant,
                String reason,
                String message,
                List<Interval> conflicts,
                Instant earliestStart,
                Instant time) {
            this(requestId, bookingId, pool, tenant, reason, message, conflicts, earliestStart, time, null);
        }
    }

    /**
     * A booking was cancelled; its capacity is free again.
     *
     * @param requestId the command that caused this event, or null when the system caused it
     * @param booking   the booking, in state CANCELLED
     * @param time      when the decision engine decided
     */
    record BookingCancelled(String requestId, Booking booking, Instant time) implements BookingEvent {
        public String bookingId() {
            return booking.id();
        }
    }

    /**
     * A booking's window was moved (extended or shortened); {@code booking} carries the new window.
     *
     * @param requestId the command that caused this event, or null when the system caused it
     * @param booking       the booking with its new window
     * @param previousStart start before the change
     * @param previousEnd   end before the change
     * @param time          when the decision engine decided
     */
    record BookingExtended(String requestId, Booking booking, Instant previousStart, Instant previousEnd, Instant time)
            implements BookingEvent {
        public String bookingId() {
            return booking.id();
        }
    }

    /**
     * A booking's window started; {@code booking} is in state ACTIVE.
     *
     * @param booking   the booking, in state ACTIVE
     * @param time      when the window started
     * @param requestId the create command whose decision activated it at once (its window had begun when it was
     *                  decided: book now), or null when the lifecycle clock activated it at its start
     */
    record BookingActivated(Booking booking, Instant time, String requestId) implements BookingEvent {

        /** Activated by the lifecycle clock at the booking's start. */
        public BookingActivated(Booking booking, Instant time) {
            this(booking, time, null);
        }

        public String bookingId() {
            return booking.id();
        }
    }

    /**
     * A booking's window ended; {@code booking} is in state COMPLETED.
     *
     * @param booking the booking, in state COMPLETED
     * @param time    when the window ended
     */
    record BookingCompleted(Booking booking, Instant time) implements BookingEvent {
        public String bookingId() {
            return booking.id();
        }

        /** The lifecycle clock completes a booking; no command asked for it. */
        @Override
        public String requestId() {
            return null;
        }
    }

    /**
     * An ACTIVE booking was given back before its end; its units are free from {@code releasedAt}. The booking keeps
     * the window it was booked with (its {@code end} is not moved), so released GPU-hours are
     * {@code quantity × (booking.end − releasedAt)} (MIG slices weighted by their share of a GPU) and held ones
     * {@code quantity × (releasedAt − booking.start)}.
     *
     * @param requestId  the release command that caused this event
     * @param booking    the booking, in state RELEASED, window as booked, {@code updatedAt} = {@code releasedAt}
     * @param reason     why it was released
     * @param releasedAt from when its units are free again: the instant of the decision
     * @param time       when the decision engine decided
     */
    record BookingReleased(String requestId, Booking booking, Reason reason, Instant releasedAt, Instant time)
            implements BookingEvent {
        public String bookingId() {
            return booking.id();
        }

        /** Why a booking was released. */
        public enum Reason {
            /** Its owner or an admin ended it ({@link BookingCommand.ReleaseBooking.Reason#END_NOW}). */
            ENDED_EARLY,
            /** Booking-service's lifecycle released it: no Workload of the tenant came within the grace. */
            NO_SHOW
        }
    }

    /**
     * A not-yet-started booking on a flexible pool was moved to other GPUs or slices, so that a new booking could be
     * placed; its window, quantity and profile are unchanged. Published before the {@link BookingConfirmed} of the
     * booking that needed the room, in the same transaction.
     *
     * @param booking           the booking with its new placement (state CONFIRMED)
     * @param previousPlacement where its units were
     * @param forBooking        the id of the booking whose placement needed the move
     * @param time              when the decision engine decided
     */
    record BookingMoved(Booking booking, List<PlacedUnit> previousPlacement, String forBooking, Instant time)
            implements BookingEvent {

        public BookingMoved {
            previousPlacement = previousPlacement == null ? List.of() : List.copyOf(previousPlacement);
        }

        public String bookingId() {
            return booking.id();
        }

        /** A move is the decision engine's own step; the create command it served is answered by its confirmation. */
        @Override
        public String requestId() {
            return null;
        }
    }

    /**
     * The answer to a {@link BookingCommand.CreateSeries}: which occurrences were booked and which were refused, and
     * why. Published in the same transaction as the {@link BookingConfirmed} (and, for an occurrence already begun,
     * {@link BookingActivated}) of every booked occurrence, which carry the same {@code requestId}; keyed by the series
     * id.
     *
     * @param requestId the series request
     * @param seriesId  the series
     * @param pool      its pool
     * @param tenant    the tenant it was booked for
     * @param rule      the RRULE as requested
     * @param timeZone  the zone it was expanded in ({@code UTC} when none was given)
     * @param mode      the mode it was booked in
     * @param confirmed the booked occurrences, in order of start, each carrying {@code seriesId}
     * @param refused   the occurrences not booked, in order of start, each with its reason
     * @param time      when the decision engine decided
     */
    record SeriesDecided(
            String requestId,
            String seriesId,
            String pool,
            String tenant,
            String rule,
            String timeZone,
            BookingCommand.SeriesMode mode,
            List<Booking> confirmed,
            List<RefusedOccurrence> refused,
            Instant time)
            implements BookingEvent {

        public SeriesDecided {
            confirmed = confirmed == null ? List.of() : List.copyOf(confirmed);
            refused = refused == null ? List.of() : List.copyOf(refused);
        }

        /** The series id (the record key). */
        @Override
        public String bookingId() {
            return seriesId;
        }
    }

    /**
     * An occurrence of a series that was not booked.
     *
     * @param bookingId     the id the occurrence would have had
     * @param start         its inclusive start
     * @param end           its exclusive end
     * @param reason        the rule it broke, as a {@link BookingRejected}'s (e.g. {@code CAPACITY}); under all-or-none
     *                      an occurrence that fitted is {@code SERIES_ALL_OR_NONE}
     * @param message       human-readable explanation
     * @param earliestStart for {@code CAPACITY}, the earliest start at which the occurrence would fit, or null
     */
    record RefusedOccurrence(
            String bookingId, Instant start, Instant end, String reason, String message, Instant earliestStart) {}

    /**
     * The answer to a {@link BookingCommand.CancelSeries}: the occurrences cancelled, each also published as a
     * {@link BookingCancelled} with the same {@code requestId} in the same transaction; keyed by the series id.
     *
     * @param requestId the cancel request
     * @param seriesId  the series
     * @param pool      its pool
     * @param tenant    the series' tenant
     * @param from      occurrences starting at or after this instant were cancelled
     * @param cancelled ids of the cancelled occurrences, in order of start (empty when none was left)
     * @param time      when the decision engine decided
     */
    record SeriesCancelled(
            String requestId,
            String seriesId,
            String pool,
            String tenant,
            Instant from,
            List<String> cancelled,
            Instant time)
            implements BookingEvent {

        public SeriesCancelled {
            cancelled = cancelled == null ? List.of() : List.copyOf(cancelled);
        }

        /** The series id (the record key). */
        @Override
        public String bookingId() {
            return seriesId;
        }
    }

    /**
     * A create request over its pool's approval threshold was accepted for approval: {@code booking} is in state
     * PENDING_APPROVAL and keeps its units from anyone else until an admin decides or {@code holdUntil} passes.
     *
     * @param requestId the create command
     * @param booking   the booking, in state PENDING_APPROVAL
     * @param unitHours its size as the threshold measures it: units × hours, a MIG unit weighed as its share of a GPU
     *                  on a flexible pool
     * @param threshold the pool's threshold it is over
     * @param holdUntil when the hold runs out unless an admin decides: the pool's approval hold after the decision,
     *                  never past the booking's start
     * @param time      when the decision engine decided
     */
    record BookingPendingApproval(
            String requestId, Booking booking, double unitHours, double threshold, Instant holdUntil, Instant time)
            implements BookingEvent {
        public String bookingId() {
            return booking.id();
        }
    }

    /**
     * A booking awaiting approval was approved (state CONFIRMED, from then on like any confirmed booking), denied, or
     * not decided before its hold ran out (both state DENIED: its units are free again).
     *
     * @param requestId the approval command, or null when the hold ran out
     * @param booking   the booking, in state CONFIRMED or DENIED
     * @param outcome   what became of it
     * @param decidedBy the admin's subject, or null when the hold ran out
     * @param reason    the admin's words, may be null
     * @param time      when the decision engine decided
     */
    record BookingApprovalDecided(
            String requestId, Booking booking, Outcome outcome, String decidedBy, String reason, Instant time)
            implements BookingEvent {
        public String bookingId() {
            return booking.id();
        }

        /** What became of a booking awaiting approval. */
        public enum Outcome {
            /** An admin approved it: CONFIRMED. */
            APPROVED,
            /** An admin denied it: DENIED. */
            DENIED,
            /** Nobody decided before its hold ran out: DENIED. */
            EXPIRED
        }
    }

    /**
     * A create request that did not fit and asked to wait was put on the waitlist (answering the request: HTTP 202);
     * the entry's id is the id of the booking it may become.
     *
     * @param requestId the create request
     * @param entry     the entry, in state WAITING
     * @param conflicts the intervals of the first window tried where capacity was short
     * @param time      when the decision engine decided
     */
    record BookingWaitlisted(String requestId, WaitlistEntry entry, List<Interval> conflicts, Instant time)
            implements BookingEvent {
        public String bookingId() {
            return entry.id();
        }
    }

    /**
     * A waitlist entry left the waitlist: BOOKED (a {@link BookingConfirmed} with the same id follows in the same
     * transaction), CANCELLED by its tenant, or EXPIRED at its latest start.
     *
     * @param requestId the cancel request, or null when the engine booked or expired it
     * @param entry     the entry in its final state
     * @param time      when the decision engine decided
     */
    record WaitlistEnded(String requestId, WaitlistEntry entry, Instant time) implements BookingEvent {
        public String bookingId() {
            return entry.id();
        }
    }

    /**
     * The pool's writer decided a "keep it" answer ({@link BookingCommand.KeepWorkload}) against the booking's keep
     * bounds. Granted: a {@code KeepRequested} for {@code hours} went to {@code gpuaas.reclaim-keeps} in the same
     * transaction (idle-reclaimer's {@code ReclaimKept} says when the reclaim may come). Refused: nothing was kept,
     * {@code bound} names the bound the answer passed.
     *
     * @param requestId  the keep request
     * @param bookingId  the booking the keep is charged to (the record key)
     * @param tenant     the booking's tenant
     * @param workload   the workload, in the booking's namespace
     * @param hours      the hours asked for
     * @param granted    whether they were granted (all of them) or refused (none)
     * @param bound      when refused, {@code per-answer} (the pool's {@code keep.maxHoursPerAnswer}) or
     *                   {@code per-booking-day} (its {@code keep.maxHoursPerDay}); null when granted
     * @param maxHours   the bound's hours when refused; the pool's {@code keep.maxHoursPerDay} when granted
     * @param day        the UTC day the answer counts on (of {@code time})
     * @param hoursToday the hours granted to the booking on {@code day}, this answer included
     * @param hoursLeft  the hours the booking may still be kept on {@code day}
     * @param requestedBy the authenticated subject that answered
     * @param time       when the decision engine decided: the keep counts from here
     */
    record WorkloadKeepDecided(
            String requestId,
            String bookingId,
            String tenant,
            WorkloadRef workload,
            int hours,
            boolean granted,
            String bound,
            int maxHours,
            LocalDate day,
            int hoursToday,
            int hoursLeft,
            String requestedBy,
            Instant time)
            implements BookingEvent {}
}
