package io.gpuaas.events.booking;

import io.gpuaas.events.budget.BudgetHold;
import io.gpuaas.events.reclaim.WorkloadRef;
import java.time.Duration;
import java.time.Instant;

/**
 * A request to change bookings on one pool; the values of {@code gpuaas.booking-commands}, keyed by pool id
 * so that a single writer decides per pool.
 */
public sealed interface BookingCommand
        permits BookingCommand.CreateBooking,
                BookingCommand.CancelBooking,
                BookingCommand.ChangeBooking,
                BookingCommand.ReleaseBooking,
                BookingCommand.DecideApproval,
                BookingCommand.CreateSeries,
                BookingCommand.CancelSeries,
                BookingCommand.KeepWorkload {

    /** Unique id of this request; the decision echoes it so the HTTP edge can match its answer. */
    String requestId();

    /** Client-chosen idempotency key, or null; the same key and body always get the same decision. */
    String idempotencyKey();

    /** The authenticated caller. */
    Caller caller();

    /** The pool the command acts on (the record key). */
    String pool();

    /** The booking the command creates or acts on. */
    String bookingId();

    /** When the HTTP edge accepted the request. */
    Instant requestedAt();

    /**
     * What the HTTP edge bound the idempotency key to: a digest of the method, the target path and the canonical
     * body, or null (commands written before the edge sent it). When present, "same request" means the same
     * fingerprint, so the edge and the decider agree on a replay.
     */
    String requestFingerprint();

    /**
     * Book {@code quantity} units of {@code pool} for {@code [start, end)} in {@code namespace}. Without a start the
     * booking starts at the instant the decision engine decides (book now: its clock, not the edge's); with a
     * {@code duration} instead of an end, it ends at start + duration rounded up to the policy's alignment. A booking
     * whose window has begun when it is decided is confirmed and activated in the same decision.
     *
     * @param requestId      unique id of the request; the decision echoes it
     * @param idempotencyKey client-chosen idempotency key, or null
     * @param caller         the authenticated caller
     * @param pool           the pool (the record key)
     * @param bookingId      the booking created or acted on
     * @param namespace      tenant namespace the capacity is for
     * @param quantity       units of the pool's resource
     * @param start          requested inclusive start, or null: from the instant of the decision (book now)
     * @param end            requested exclusive end, or null when {@code duration} is given
     * @param purpose        free text, may be null
     * @param requestedAt    when the HTTP edge accepted the request
     * @param requestFingerprint digest of the HTTP request the idempotency key is bound to, or null
     * @param duration       instead of {@code end}: the length, rounded up so the end is aligned; else null
     * @param profile        on a flexible pool, the MIG profile of each unit (e.g. {@code 3g.71gb}), or null for
     *                       whole GPUs; on a static pool null or the pool's own profile
     * @param latestStart    to wait rather than be refused: if the window does not fit, the request waits on the
     *                       waitlist ({@link WaitlistEntry}) and is booked as soon as the same quantity and length fit
     *                       with a start no later than this; null: refused when it does not fit
     * @param budgetHold     what the budget stage set aside for it per month ({@link BudgetHold}): the decision
     *                       refuses it {@code BUDGET_EXCEEDED} if the booking needs more in any month; null: not
     *                       checked (a command that did not pass the stage)
     */
    record CreateBooking(
            String requestId,
            String idempotencyKey,
            Caller caller,
            String pool,
            String bookingId,
            String namespace,
            int quantity,
            Instant start,
            Instant end,
            String purpose,
            Instant requestedAt,
            String requestFingerprint,
            Duration duration,
            String profile,
            Instant latestStart,
            BudgetHold budgetHold)
            implements BookingCommand {

        /** A command the budget stage has not passed (tools and tests that write the pool's topic directly). */
        public CreateBooking(
                String requestId,
                String idempotencyKey,
                Caller caller,
                String pool,
                String bookingId,
                String namespace,
                int quantity,
                Instant start,
                Instant end,
                String purpose,
                Instant requestedAt,
                String requestFingerprint,
                Duration duration,
                String profile,
                Instant latestStart) {
            this(
                    requestId,
                    idempotencyKey,
                    caller,
                    pool,
                    bookingId,
                    namespace,
                    quantity,
                    start,
                    end,
                    purpose,
                    requestedAt,
                    requestFingerprint,
                    duration,
                    profile,
                    latestStart,
                    null);
        }

        /** The same command carrying what the budget stage set aside for it. */
        public CreateBooking withBudgetHold(BudgetHold hold) {
            return new CreateBooking(
                    requestId,
                    idempotencyKey,
                    caller,
                    pool,
                    bookingId,
                    namespace,
                    quantity,
                    start,
                    end,
                    purpose,
                    requestedAt,
                    requestFingerprint,
                    duration,
                    profile,
                    latestStart,
                    hold);
        }

        /** A command that does not wait: refused when it does not fit. */
        public CreateBooking(
                String requestId,
                String idempotencyKey,
                Caller caller,
                String pool,
                String bookingId,
                String namespace,
                int quantity,
                Instant start,
                Instant end,
                String purpose,
                Instant requestedAt,
                String requestFingerprint,
                Duration duration,
                String profile) {
            this(
                    requestId,
                    idempotencyKey,
                    caller,
                    pool,
                    bookingId,
                    namespace,
                    quantity,
                    start,
                    end,
                    purpose,
                    requestedAt,
                    requestFingerprint,
                    duration,
                    profile,
                    null);
        }

        /** A command without a profile: whole GPUs on a flexible pool, the pool's own unit on a static one. */
        public CreateBooking(
                String requestId,
                String idempotencyKey,
                Caller caller,
                String pool,
                String bookingId,
                String namespace,
                int quantity,
                Instant start,
                Instant end,
                String purpose,
                Instant requestedAt,
                String requestFingerprint,
                Duration duration) {
            this(
                    requestId,
                    idempotencyKey,
                    caller,
                    pool,
                    bookingId,
                    namespace,
                    quantity,
                    start,
                    end,
                    purpose,
                    requestedAt,
                    requestFingerprint,
                    duration,
                    null);
        }

        /** A command with a given window (start and end), as every command was before book-now existed. */
        public CreateBooking(
                String requestId,
                String idempotencyKey,
                Caller caller,
                String pool,
                String bookingId,
                String namespace,
                int quantity,
                Instant start,
                Instant end,
                String purpose,
                Instant requestedAt,
                String requestFingerprint) {
            this(
                    requestId,
                    idempotencyKey,
                    caller,
                    pool,
                    bookingId,
                    namespace,
                    quantity,
                    start,
                    end,
                    purpose,
                    requestedAt,
                    requestFingerprint,
                    null);
        }

        /** A command without a request fingerprint (tools and tests that bypass the HTTP edge). */
        public CreateBooking(
                String requestId,
                String idempotencyKey,
                Caller caller,
                String pool,
                String bookingId,
                String namespace,
                int quantity,
                Instant start,
                Instant end,
                String purpose,
                Instant requestedAt) {
            this(
                    requestId,
                    idempotencyKey,
                    caller,
                    pool,
                    bookingId,
                    namespace,
                    quantity,
                    start,
                    end,
                    purpose,
                    requestedAt,
                    null,
                    null);
        }

        /** Whether the booking starts at the instant of the decision (no start given). */
        public boolean startsNow() {
            return start == null;
        }

        /** Whether the request waits on the waitlist when it does not fit. */
        public boolean waits() {
            return latestStart != null;
        }
    }

    /**
     * Cancel a booking.
     *
     * @param requestId      unique id of the request; the decision echoes it
     * @param idempotencyKey client-chosen idempotency key, or null
     * @param caller         the authenticated caller
     * @param pool           the pool (the record key)
     * @param bookingId      the booking created or acted on
     * @param requestedAt    when the HTTP edge accepted the request
     * @param requestFingerprint digest of the HTTP request the idempotency key is bound to, or null
     */
    record CancelBooking(
            String requestId,
            String idempotencyKey,
            Caller caller,
            String pool,
            String bookingId,
            Instant requestedAt,
            String requestFingerprint)
            implements BookingCommand {

        /** A command without a request fingerprint (tools and tests that bypass the HTTP edge). */
        public CancelBooking(
                String requestId,
                String idempotencyKey,
                Caller caller,
                String pool,
                String bookingId,
                Instant requestedAt) {
            this(requestId, idempotencyKey, caller, pool, bookingId, requestedAt, null);
        }
    }

    /**
     * Move the window of a booking (extend or shorten); checked like a new booking. With a {@code duration} instead of
     * an end, an ACTIVE booking is extended (or shortened) from now: the new end is the decision's instant plus the
     * duration, rounded up to the policy's alignment.
     *
     * @param requestId      unique id of the request; the decision echoes it
     * @param idempotencyKey client-chosen idempotency key, or null
     * @param caller         the authenticated caller
     * @param pool           the pool (the record key)
     * @param bookingId      the booking created or acted on
     * @param start          new inclusive start
     * @param end            new exclusive end, or null when {@code duration} is given
     * @param requestedAt    when the HTTP edge accepted the request
     * @param requestFingerprint digest of the HTTP request the idempotency key is bound to, or null
     * @param duration       instead of {@code end}: the length from the decision's instant, rounded up; else null
     * @param budgetHold     what the budget stage set aside for the change per month: the decision refuses it
     *                       {@code BUDGET_EXCEEDED} if the new window needs more than the old one plus this in any
     *                       month; null: not checked
     */
    record ChangeBooking(
            String requestId,
            String idempotencyKey,
            Caller caller,
            String pool,
            String bookingId,
            Instant start,
            Instant end,
            Instant requestedAt,
            String requestFingerprint,
            Duration duration,
            BudgetHold budgetHold)
            implements BookingCommand {

        /** A change the budget stage has not passed (tools and tests that write the pool's topic directly). */
        public ChangeBooking(
                String requestId,
                String idempotencyKey,
                Caller caller,
                String pool,
                String bookingId,
                Instant start,
                Instant end,
                Instant requestedAt,
                String requestFingerprint,
                Duration duration) {
            this(
                    requestId,
                    idempotencyKey,
                    caller,
                    pool,
                    bookingId,
                    start,
                    end,
                    requestedAt,
                    requestFingerprint,
                    duration,
                    null);
        }

        /** The same change carrying what the budget stage set aside for it. */
        public ChangeBooking withBudgetHold(BudgetHold hold) {
            return new ChangeBooking(
                    requestId,
                    idempotencyKey,
                    caller,
                    pool,
                    bookingId,
                    start,
                    end,
                    requestedAt,
                    requestFingerprint,
                    duration,
                    hold);
        }

        /** A command with a given end, as every change was before extend-from-now existed. */
        public ChangeBooking(
                String requestId,
                String idempotencyKey,
                Caller caller,
                String pool,
                String bookingId,
                Instant start,
                Instant end,
                Instant requestedAt,
                String requestFingerprint) {
            this(requestId, idempotencyKey, caller, pool, bookingId, start, end, requestedAt, requestFingerprint, null);
        }

        /** A command without a request fingerprint (tools and tests that bypass the HTTP edge). */
        public ChangeBooking(
                String requestId,
                String idempotencyKey,
                Caller caller,
                String pool,
                String bookingId,
                Instant start,
                Instant end,
                Instant requestedAt) {
            this(requestId, idempotencyKey, caller, pool, bookingId, start, end, requestedAt, null, null);
        }
    }

    /**
     * Give back the rest of an ACTIVE booking now: its units are free from the instant of the decision. Answered by
     * {@link BookingEvent.BookingReleased} or a rejection ({@code INVALID_STATE} when the booking is not ACTIVE).
     *
     * @param requestId      unique id of the request; the decision echoes it
     * @param idempotencyKey client-chosen idempotency key, or null
     * @param caller         the owner or an admin ({@link Reason#END_NOW}); a system caller for {@link Reason#NO_SHOW}
     * @param pool           the pool (the record key)
     * @param bookingId      the booking released
     * @param reason         why the booking is released
     * @param requestedAt    when the HTTP edge (or the system component) issued the request
     * @param requestFingerprint digest of the HTTP request the idempotency key is bound to, or null
     */
    record ReleaseBooking(
            String requestId,
            String idempotencyKey,
            Caller caller,
            String pool,
            String bookingId,
            Reason reason,
            Instant requestedAt,
            String requestFingerprint)
            implements BookingCommand {

        /** Why a booking is released. */
        public enum Reason {
            /** Its owner or an admin ends it early (HTTP {@code POST /api/v1/bookings/{id}/end}). */
            END_NOW,
            /**
             * Booking-service's lifecycle found no Workload of the tenant within the grace; the decider accepts it only
             * from a {@link Caller#system() system} caller.
             */
            NO_SHOW
        }
    }

    /** How a series is booked when some of its occurrences do not fit. */
    enum SeriesMode {
        /** Every occurrence that fits is booked; the others are refused, each with its reason. */
        EACH,
        /** All occurrences or none: when any is refused, nothing is booked. */
        ALL_OR_NONE
    }

    /**
     * Book a recurring series: one booking per occurrence of {@code rule}, each decided like a {@link CreateBooking}
     * of its own, all in one decision. The first occurrence is {@code [start, end)} (or {@code start} + duration);
     * the others keep its wall-clock time and length in {@code timeZone}, so a weekly 09:00 slot stays 09:00 across
     * a daylight-saving change. Occurrence {@code i} (from 0) gets the booking id
     * {@code nameUUIDFromBytes(seriesId + "/" + i)} and carries {@code seriesId}. Answered by
     * {@link BookingEvent.SeriesDecided}, or a {@link BookingEvent.BookingRejected} naming the series id when the
     * request as a whole is refused.
     *
     * @param requestId      unique id of the request; the decision echoes it
     * @param idempotencyKey client-chosen idempotency key, or null
     * @param caller         the authenticated caller
     * @param pool           the pool (the record key)
     * @param seriesId       the new series' id
     * @param namespace      tenant namespace the capacity is for
     * @param quantity       units of the pool's resource per occurrence
     * @param start          inclusive start of the first occurrence's window (DTSTART)
     * @param end            exclusive end of the first occurrence, or null when {@code duration} is given
     * @param duration       instead of {@code end}: each occurrence's length, rounded up to the alignment; else null
     * @param purpose        free text, may be null
     * @param profile        on a flexible pool, the MIG profile of each unit, or null (as {@link CreateBooking})
     * @param rule           RFC 5545 RRULE value: {@code FREQ=DAILY|WEEKLY}, optional {@code INTERVAL}, {@code BYDAY}
     *                       (weekly only), and exactly one of {@code COUNT} and {@code UNTIL}
     * @param timeZone       IANA zone the rule is expanded in (e.g. {@code Europe/Berlin}), or null for UTC
     * @param mode           each occurrence on its own, or all or none; null means {@link SeriesMode#EACH}
     * @param requestedAt    when the HTTP edge accepted the request
     * @param requestFingerprint digest of the HTTP request the idempotency key is bound to, or null
     */
    record CreateSeries(
            String requestId,
            String idempotencyKey,
            Caller caller,
            String pool,
            String seriesId,
            String namespace,
            int quantity,
            Instant start,
            Instant end,
            Duration duration,
            String purpose,
            String profile,
            String rule,
            String timeZone,
            SeriesMode mode,
            Instant requestedAt,
            String requestFingerprint)
            implements BookingCommand {

        /** The series id: the request as a whole acts on the series. */
        @Override
        public String bookingId() {
            return seriesId;
        }
    }

    /**
     * Cancel the rest of a series: every occurrence still CONFIRMED (not started) whose start is at or after
     * {@code from}, in one decision. Running and ended occurrences are left as they are (end a running one with
     * {@link ReleaseBooking}). Answered by {@link BookingEvent.SeriesCancelled}, or {@code NOT_FOUND} when the caller
     * sees no occurrence of the series.
     *
     * @param requestId      unique id of the request; the decision echoes it
     * @param idempotencyKey client-chosen idempotency key, or null
     * @param caller         the owner or an admin
     * @param pool           the pool of the series (the record key)
     * @param seriesId       the series
     * @param from           occurrences starting at or after this instant are cancelled; null: from the instant of the
     *                       decision
     * @param requestedAt    when the HTTP edge accepted the request
     * @param requestFingerprint digest of the HTTP request the idempotency key is bound to, or null
     */
    record CancelSeries(
            String requestId,
            String idempotencyKey,
            Caller caller,
            String pool,
            String seriesId,
            Instant from,
            Instant requestedAt,
            String requestFingerprint)
            implements BookingCommand {

        /** The series id: the request acts on the series as a whole. */
        @Override
        public String bookingId() {
            return seriesId;
        }
    }

    /**
     * An admin's answer to a booking awaiting approval (state PENDING_APPROVAL). Answered by
     * {@link BookingEvent.BookingApprovalDecided} or a rejection ({@code NOT_PERMITTED} from anyone but an admin,
     * {@code INVALID_STATE} when the booking no longer awaits approval).
     *
     * @param requestId          unique id of the request; the decision echoes it
     * @param idempotencyKey     client-chosen idempotency key, or null
     * @param caller             the admin
     * @param pool               the pool (the record key)
     * @param bookingId          the booking decided on
     * @param approve            true to approve, false to deny
     * @param reason             free text for the tenant, may be null
     * @param requestedAt        when the HTTP edge accepted the request
     * @param requestFingerprint digest of the HTTP request the idempotency key is bound to, or null
     */
    record DecideApproval(
            String requestId,
            String idempotencyKey,
            Caller caller,
            String pool,
            String bookingId,
            boolean approve,
            String reason,
            Instant requestedAt,
            String requestFingerprint)
            implements BookingCommand {}

    /**
     * A team's "keep it" answer to a {@code ReclaimPending} of a workload in the namespace of booking
     * {@code bookingId}: keep the workload from reclaim for {@code hours} more hours. Decided by the pool's single
     * writer against the pool's {@code keep} policy ({@code PoolKeep}): at most {@code maxHoursPerAnswer} in one
     * answer, and at most {@code maxHoursPerDay} for all the booking's answers of one UTC day together (the hours
     * granted are kept per booking and UTC day in the writer's state). Answered by
     * {@link BookingEvent.WorkloadKeepDecided}, or a rejection ({@code NOT_FOUND} for another tenant's or an unknown
     * booking, or a workload outside its namespace; {@code INVALID_STATE} when the booking is not ACTIVE). A grant is
     * passed to idle-reclaimer as a {@code KeepRequested} on {@code gpuaas.reclaim-keeps} in the same transaction.
     *
     * @param requestId          unique id of the request; the decision echoes it
     * @param idempotencyKey     client-chosen idempotency key, or null
     * @param caller             the booking's owner or an admin
     * @param pool               the booking's pool (the record key)
     * @param bookingId          the booking the keep is charged to
     * @param workload           the workload to keep, in the booking's namespace
     * @param hours              how long to keep it, in whole hours (at least 1)
     * @param requestedAt        when the HTTP edge accepted the request
     * @param requestFingerprint digest of the HTTP request the idempotency key is bound to, or null
     */
    record KeepWorkload(
            String requestId,
            String idempotencyKey,
            Caller caller,
            String pool,
            String bookingId,
            WorkloadRef workload,
            int hours,
            Instant requestedAt,
            String requestFingerprint)
            implements BookingCommand {}
}
