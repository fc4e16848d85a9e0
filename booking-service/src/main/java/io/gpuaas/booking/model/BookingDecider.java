package io.gpuaas.booking.model;

import io.gpuaas.booking.budget.BudgetMeasure;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingCommand;
import io.gpuaas.events.booking.BookingCommand.CancelBooking;
import io.gpuaas.events.booking.BookingCommand.CancelSeries;
import io.gpuaas.events.booking.BookingCommand.ChangeBooking;
import io.gpuaas.events.booking.BookingCommand.CreateBooking;
import io.gpuaas.events.booking.BookingCommand.CreateSeries;
import io.gpuaas.events.booking.BookingCommand.DecideApproval;
import io.gpuaas.events.booking.BookingCommand.ReleaseBooking;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.BookingEvent.BookingActivated;
import io.gpuaas.events.booking.BookingEvent.BookingCancelled;
import io.gpuaas.events.booking.BookingEvent.BookingCompleted;
import io.gpuaas.events.booking.BookingEvent.BookingConfirmed;
import io.gpuaas.events.booking.BookingEvent.BookingExtended;
import io.gpuaas.events.booking.BookingEvent.BookingRejected;
import io.gpuaas.events.booking.BookingEvent.BookingReleased;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.booking.Caller;
import io.gpuaas.events.booking.Interval;
import io.gpuaas.events.booking.PlacedUnit;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Decides booking commands against the current state of a pool: a pure function of (command, ledger, now) to a
 * {@link Decision}. It never mutates the ledger; the caller applies the decision and publishes its events in
 * the same exactly-once step.
 */
public final class BookingDecider {

    private final PoolCatalog pools;
    private final BookingPolicy policy;
    private final KeepDecisions keeps;
    private final CapacityCheck capacity;
    private final FlexibleDecisions flexible;
    private final SeriesDecisions series;
    private final IdempotencyGuard idempotency = new IdempotencyGuard();
    private final Approvals approvals;
    private final Waitlist waitlist;

    public BookingDecider(PoolCatalog pools, BookingPolicy policy) {
        this.pools = pools;
        this.policy = policy;
        this.capacity = new CapacityCheck(policy);
        this.flexible = new FlexibleDecisions(policy, capacity);
        this.approvals = new Approvals(pools);
        this.keeps = new KeepDecisions(pools);
        this.series = new SeriesDecisions(pools, policy);
        // A waitlisted booking and a series' occurrence are creates like any other: the approval gate too.
        this.waitlist = new Waitlist(policy, this::gatedCreate);
    }

    public BookingPolicy policy() {
        return policy;
    }

    /** The pools decided on; a ledger for this decider is built on the same catalog (its flexible pools' fleets). */
    public PoolCatalog pools() {
        return pools;
    }

    public Decision decide(BookingCommand command, BookingLedger ledger, Instant now) {
        Optional<Decision> repeat = idempotency.replay(command, ledger, now);
        if (repeat.isPresent()) {
            return repeat.get();
        }
        Decision decision =
                switch (command) {
                    case CreateBooking create -> waitlist.admit(create, gatedCreate(create, ledger, now), ledger, now);
                    case CancelBooking cancel -> cancel(cancel, ledger, now);
                    case ChangeBooking change -> change(change, ledger, now);
                    case ReleaseBooking release -> release(release, ledger, now);
                    case DecideApproval approval -> approvals.decide(approval, ledger, now);
                    case CreateSeries s -> series.create(s, ledger, now, this::gatedCreate);
                    case CancelSeries s -> series.cancelRest(s, ledger, now);
                    case BookingCommand.KeepWorkload k -> keeps.decide(k, ledger, now);
                };
        return idempotency.remember(command, decision, now);
    }

    /**
     * Moves every due booking along its lifecycle: CONFIRMED to ACTIVE at start, ACTIVE to COMPLETED at end, and a
     * booking still awaiting approval when its hold runs out to DENIED.
     */
    public Decision advance(BookingLedger ledger, Instant now) {
        List<BookingEvent> events = new ArrayList<>();
        List<Booking> changes = new ArrayList<>();
        for (Booking booking : ledger.dueAt(now)) {
            if (booking.state() == BookingState.PENDING_APPROVAL) {
                BookingEvent.BookingApprovalDecided expired = Approvals.expire(booking, now);
                events.add(expired);
                changes.add(expired.booking());
                continue;
            }
            Booking current = booking;
            if (current.state() == BookingState.CONFIRMED) {
                current = current.withState(BookingState.ACTIVE, now);
                events.add(new BookingActivated(current, now));
            }
            if (!current.end().isAfter(now)) {
                current = current.withState(BookingState.COMPLETED, now);
                events.add(new BookingCompleted(current, now));
            }
            changes.add(current);
        }
        events.addAll(waitlist.expire(ledger, now));
        return new Decision(events, changes, null);
    }

    /** What the decider would refuse in waiting until {@code latestStart} for a window from {@code earliest}. */
    public Optional<String> waitlistProblem(Instant latestStart, Instant earliest, Instant now) {
        return waitlist.latestStartProblem(latestStart, earliest, now);
    }

    /**
     * After {@code decision} has been applied to {@code ledger}: if it gave capacity back on a pool (a cancel, a
     * change, a release, a flexible move), books the waitlist entries there that now fit, in arrival order, applying
     * each to {@code ledger} as it goes; the caller publishes them in the same exactly-once step.
     */
    public List<Decision> settleWaitlist(Decision decision, BookingLedger ledger, Instant now) {
        return waitlist.settle(decision, ledger, now);
    }

    /** The create of one booking as its pool's approval policy has it: over the threshold, held for an admin. */
    private Decision gatedCreate(CreateBooking c, BookingLedger ledger, Instant now) {
        return approvals.gate(c, create(c, ledger, now), now);
    }

    private Decision create(CreateBooking c, BookingLedger ledger, Instant now) {
        Optional<Pool> pool = pools.find(c.pool());
        if (pool.isEmpty()) {
            return reject(c, null, Rejection.UNKNOWN_POOL, "no pool " + c.pool(), now);
        }
        if (ledger.booking(c.bookingId()).isPresent()) {
            return reject(c, null, Rejection.BOOKING_EXISTS, "booking " + c.bookingId() + " exists", now);
        }
        // Book now: the window starts at this decision's instant, on this clock, whatever the edge's said.
        Instant start = c.startsNow() ? now : c.start();
        Optional<BookingPolicy.Violation> broken = PoolUnits.profileProblem(pool.get(), c.profile());
        if (broken.isEmpty()) {
            broken = endProblem(c.end(), c.duration());
        }
        Instant end = broken.isEmpty() ? endOf(start, c.end(), c.duration()) : null;
        if (broken.isEmpty()) {
            int units = PoolUnits.capacity(pool.get(), c.profile());
            broken = c.startsNow()
                    ? policy.checkNow(now, end, c.quantity(), units)
                    : policy.check(start, end, c.quantity(), units, now);
        }
        if (broken.isPresent()) {
            return reject(c, null, broken.get().rule(), broken.get().message(), now);
        }
        Optional<String> overBudget = BudgetMeasure.beyondHold(
                c.budgetHold(), BudgetMeasure.of(pool.get(), c.profile(), c.quantity(), start, end), Map.of(), now);
        if (overBudget.isPresent()) {
            return reject(c, null, Rejection.BUDGET_EXCEEDED, overBudget.get(), now);
        }
        if (pool.get().flexible()) {
            FlexibleDecisions.Placement placed = flexible.create(c, pool.get(), start, end, ledger, now);
            if (placed.refusal() != null) {
                return placed.refusal();
            }
            return placed.after(confirm(c, newBooking(c, pool.get(), start, end, now, placed.placement()), now));
        }
        Optional<Decision> short_ = capacity.check(c, pool.get(), null, start, end, c.quantity(), ledger, now);
        return short_.orElseGet(() -> confirm(c, newBooking(c, pool.get(), start, end, now, null), now));
    }

    /**
     * Confirms {@code booking}; one whose window has begun (booked from now, or a start within the past tolerance) is
     * activated in the same decision, so its quota need not wait for the next tick. Both events answer the request.
     */
    private static Decision confirm(CreateBooking c, Booking booking, Instant now) {
        BookingConfirmed confirmed = new BookingConfirmed(c.requestId(), booking, now);
        if (booking.start().isAfter(now)) {
            return Decision.of(confirmed, booking);
        }
        Booking active = booking.withState(BookingState.ACTIVE, now);
        return new Decision(
                List.of(confirmed, new BookingActivated(active, now, c.requestId())), List.of(active), null);
    }

    private static Booking newBooking(
            CreateBooking c, Pool pool, Instant start, Instant end, Instant now, List<PlacedUnit> placement) {
        return new Booking(
                c.bookingId(),
                c.caller().tenant(),
                c.namespace(),
                pool.id(),
                pool.flavor(),
                pool.resourceFor(c.profile()),
                c.quantity(),
                start,
                end,
                c.purpose(),
                BookingState.CONFIRMED,
                c.caller().subject(),
                now,
                now,
                1,
                placement);
    }

    /** A command gives exactly one of an end and a duration; a duration must be positive and within the maximum. */
    private Optional<BookingPolicy.Violation> endProblem(Instant end, Duration duration) {
        if ((end == null) == (duration == null)) {
            return Optional.of(
                    new BookingPolicy.Violation(Rejection.INVALID_WINDOW, "give either end or duration, not both"));
        }
        return duration == null ? Optional.empty() : policy.checkDuration(duration);
    }

    /** The end asked for: given, or {@code start} + duration rounded up to the alignment. */
    private Instant endOf(Instant start, Instant end, Duration duration) {
        return end != null ? end : policy.endAfter(start, duration);
    }

    private Decision cancel(CancelBooking c, BookingLedger ledger, Instant now) {
        Optional<Booking> found = visible(c.bookingId(), c.caller(), ledger);
        if (found.isEmpty()) {
            return waitlist.cancel(c, ledger, now)
                    .orElseGet(() -> reject(c, null, Rejection.NOT_FOUND, "no booking " + c.bookingId(), now));
        }
        Booking booking = found.get();
        if (!booking.state().takesCapacity()) { // a request awaiting approval may be withdrawn too
            return reject(c, booking, Rejection.INVALID_STATE, "booking is " + booking.state(), now);
        }
        Booking cancelled = booking.withState(BookingState.CANCELLED, now);
        return Decision.of(new BookingCancelled(c.requestId(), cancelled, now), cancelled);
    }

    private Decision change(ChangeBooking c, BookingLedger ledger, Instant now) {
        Optional<Booking> found = visible(c.bookingId(), c.caller(), ledger);
        if (found.isEmpty()) {
            return reject(c, null, Rejection.NOT_FOUND, "no booking " + c.bookingId(), now);
        }
        Booking booking = found.get();
        Optional<BookingPolicy.Violation> window = c.start() == null
                ? Optional.of(new BookingPolicy.Violation(Rejection.INVALID_WINDOW, "a change needs a start"))
                : endProblem(c.end(), c.duration());
        if (window.isPresent()) {
            return reject(c, booking, window.get().rule(), window.get().message(), now);
        }
        // Extend from now: measured from this decision's instant, like a book-now.
        Instant end = endOf(now, c.end(), c.duration());
        Optional<String> stateProblem = changeStateProblem(booking, c, end, now);
        if (stateProblem.isPresent()) {
            return reject(c, booking, Rejection.INVALID_STATE, stateProblem.get(), now);
        }
        Optional<BookingPolicy.Violation> broken =
                policy.checkMove(booking.start(), booking.quantity(), c.start(), end, now);
        if (broken.isPresent()) {
            return reject(c, booking, broken.get().rule(), broken.get().message(), now);
        }
        Pool pool = pools.find(booking.pool()).orElseThrow();
        Optional<String> overBudget = BudgetMeasure.beyondHold(
                c.budgetHold(),
                BudgetMeasure.of(pool, BudgetMeasure.profileOf(pool, booking), booking.quantity(), c.start(), end),
                BudgetMeasure.of(pool, booking),
                now);
        if (overBudget.isPresent()) {
            return reject(c, booking, Rejection.BUDGET_EXCEEDED, overBudget.get(), now);
        }
        List<PlacedUnit> placement = booking.placement();
        if (pool.flexible()) {
            FlexibleDecisions.Placement placed = flexible.change(c, pool, booking, c.start(), end, ledger, now);
            if (placed.refusal() != null) {
                return placed.refusal();
            }
            placement = placed.placement() != null ? placed.placement() : placement;
        } else {
            Optional<Decision> short_ =
                    capacity.check(c, pool, booking, c.start(), end, booking.quantity(), ledger, now);
            if (short_.isPresent()) {
                return short_.get();
            }
        }
        Booking moved = FlexibleDecisions.withPlacement(booking.withWindow(c.start(), end, now), placement);
        return Decision.of(new BookingExtended(c.requestId(), moved, booking.start(), booking.end(), now), moved);
    }

    /**
     * Gives back the rest of an ACTIVE booking from {@code now}: its units leave the timeline, its window stays as
     * booked. NO_SHOW is taken only from a system caller: booking-service's own lifecycle writes it, and since only
     * booking-service may write commands and its edge never marks a caller as system, the flag cannot be forged.
     */
    private Decision release(ReleaseBooking c, BookingLedger ledger, Instant now) {
        if (c.reason() == ReleaseBooking.Reason.NO_SHOW && !c.caller().system()) {
            return reject(c, null, Rejection.NOT_PERMITTED, "only booking-service's lifecycle releases no-shows", now);
        }
        Optional<Booking> found = visible(c.bookingId(), c.caller(), ledger);
        if (found.isEmpty()) {
            return reject(c, null, Rejection.NOT_FOUND, "no booking " + c.bookingId(), now);
        }
        Booking booking = found.get();
        if (booking.state() != BookingState.ACTIVE || !booking.end().isAfter(now)) {
            String state = booking.state() == BookingState.ACTIVE
                    ? "ending"
                    : booking.state().name();
            return reject(
                    c,
                    booking,
                    Rejection.INVALID_STATE,
                    "booking is " + state + "; only an ACTIVE booking can be released (cancel one not yet started)",
                    now);
        }
        Booking released = booking.withState(BookingState.RELEASED, now);
        BookingReleased.Reason reason = c.reason() == ReleaseBooking.Reason.NO_SHOW
                ? BookingReleased.Reason.NO_SHOW
                : BookingReleased.Reason.ENDED_EARLY;
        return Decision.of(new BookingReleased(c.requestId(), released, reason, now, now), released);
    }

    private static Optional<String> changeStateProblem(Booking booking, ChangeBooking c, Instant end, Instant now) {
        if (!booking.state().holdsCapacity()) {
            return Optional.of("booking is " + booking.state());
        }
        if (c.duration() != null && booking.state() != BookingState.ACTIVE) {
            return Optional.of("only an ACTIVE booking is extended from now; give its new end instead");
        }
        if (booking.state() == BookingState.ACTIVE && !c.start().equals(booking.start())) {
            return Optional.of("an active booking keeps its start; only its end may move");
        }
        if (!end.isAfter(now)) {
            return Optional.of("the new end " + end + " has already passed");
        }
        return Optional.empty();
    }

    private static Optional<Booking> visible(String bookingId, Caller caller, BookingLedger ledger) {
        return ledger.booking(bookingId)
                .filter(b -> caller.admin() || caller.system() || b.tenant().equals(caller.tenant()));
    }

    static Decision reject(BookingCommand c, Booking booking, Rejection rule, String message, Instant now) {
        return rejection(c, booking != null ? booking.pool() : c.pool(), rule, message, List.of(), null, now);
    }

    /**
     * A {@code CAPACITY} refusal: the intervals of the window where the units are short, and the earliest start at
     * which they would fit (null when not searched or none).
     */
    static Decision rejectCapacity(
            BookingCommand c, String pool, String message, List<Interval> conflicts, Instant earliest, Instant now) {
        return rejection(c, pool, Rejection.CAPACITY, message, conflicts, earliest, now);
    }

    private static Decision rejection(
            BookingCommand c,
            String pool,
            Rejection rule,
            String message,
            List<Interval> conflicts,
            Instant earliest,
            Instant now) {
        return Decision.of(
                new BookingRejected(
                        c.requestId(),
                        c.bookingId(),
                        pool,
                        c.caller().tenant(),
                        rule.name(),
                        message,
                        conflicts,
                        earliest,
                        now),
                null);
    }
}
