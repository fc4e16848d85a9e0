package io.gpuaas.events.booking;

import java.time.Instant;
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
                BookingEvent.BookingWaitlisted,
                BookingEvent.WaitlistEnded {

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
            Instant time)
            implements BookingEvent {}

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
}
