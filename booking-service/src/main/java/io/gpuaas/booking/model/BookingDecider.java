package io.gpuaas.booking.model;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingCommand;
import io.gpuaas.events.booking.BookingCommand.CancelBooking;
import io.gpuaas.events.booking.BookingCommand.ChangeBooking;
import io.gpuaas.events.booking.BookingCommand.CreateBooking;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.BookingEvent.BookingActivated;
import io.gpuaas.events.booking.BookingEvent.BookingCancelled;
import io.gpuaas.events.booking.BookingEvent.BookingCompleted;
import io.gpuaas.events.booking.BookingEvent.BookingConfirmed;
import io.gpuaas.events.booking.BookingEvent.BookingExtended;
import io.gpuaas.events.booking.BookingEvent.BookingRejected;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.booking.Caller;
import io.gpuaas.events.booking.Interval;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Decides booking commands against the current state of a pool: a pure function of (command, ledger, now) to a
 * {@link Decision}. It never mutates the ledger; the caller applies the decision and publishes its events in
 * the same exactly-once step.
 */
public final class BookingDecider {

    private final PoolCatalog pools;
    private final BookingPolicy policy;
    private final IdempotencyGuard idempotency = new IdempotencyGuard();

    public BookingDecider(PoolCatalog pools, BookingPolicy policy) {
        this.pools = pools;
        this.policy = policy;
    }

    public BookingPolicy policy() {
        return policy;
    }

    public Decision decide(BookingCommand command, BookingLedger ledger, Instant now) {
        Optional<Decision> repeat = idempotency.replay(command, ledger, now);
        if (repeat.isPresent()) {
            return repeat.get();
        }
        Decision decision =
                switch (command) {
                    case CreateBooking create -> create(create, ledger, now);
                    case CancelBooking cancel -> cancel(cancel, ledger, now);
                    case ChangeBooking change -> change(change, ledger, now);
                };
        return idempotency.remember(command, decision, now);
    }

    /** Moves every due booking along its lifecycle: CONFIRMED to ACTIVE at start, ACTIVE to COMPLETED at end. */
    public Decision advance(BookingLedger ledger, Instant now) {
        List<BookingEvent> events = new ArrayList<>();
        List<Booking> changes = new ArrayList<>();
        for (Booking booking : ledger.dueAt(now)) {
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
        return new Decision(events, changes, null);
    }

    private Decision create(CreateBooking c, BookingLedger ledger, Instant now) {
        Optional<Pool> pool = pools.find(c.pool());
        if (pool.isEmpty()) {
            return reject(c, null, Rejection.UNKNOWN_POOL, "no pool " + c.pool(), now);
        }
        if (ledger.booking(c.bookingId()).isPresent()) {
            return reject(c, null, Rejection.BOOKING_EXISTS, "booking " + c.bookingId() + " exists", now);
        }
        Optional<BookingPolicy.Violation> broken =
                policy.check(c.start(), c.end(), c.quantity(), pool.get().capacity(), now);
        if (broken.isPresent()) {
            return reject(c, null, broken.get().rule(), broken.get().message(), now);
        }
        Optional<Decision> short_ = checkCapacity(c, pool.get(), null, c.start(), c.end(), c.quantity(), ledger, now);
        if (short_.isPresent()) {
            return short_.get();
        }
        Pool p = pool.get();
        Booking booking = new Booking(
                c.bookingId(),
                c.caller().tenant(),
                c.namespace(),
                p.id(),
                p.flavor(),
                p.resource(),
                c.quantity(),
                c.start(),
                c.end(),
                c.purpose(),
                BookingState.CONFIRMED,
                c.caller().subject(),
                now,
                now,
                1);
        return Decision.of(new BookingConfirmed(c.requestId(), booking, now), booking);
    }

    private Decision cancel(CancelBooking c, BookingLedger ledger, Instant now) {
        Optional<Booking> found = visible(c.bookingId(), c.caller(), ledger);
        if (found.isEmpty()) {
            return reject(c, null, Rejection.NOT_FOUND, "no booking " + c.bookingId(), now);
        }
        Booking booking = found.get();
        if (!booking.state().holdsCapacity()) {
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
        if (c.start() == null || c.end() == null) {
            return reject(c, booking, Rejection.INVALID_WINDOW, "a change needs both start and end", now);
        }
        Optional<String> stateProblem = changeStateProblem(booking, c, now);
        if (stateProblem.isPresent()) {
            return reject(c, booking, Rejection.INVALID_STATE, stateProblem.get(), now);
        }
        Optional<BookingPolicy.Violation> broken =
                policy.checkMove(booking.start(), booking.quantity(), c.start(), c.end(), now);
        if (broken.isPresent()) {
            return reject(c, booking, broken.get().rule(), broken.get().message(), now);
        }
        Pool pool = pools.find(booking.pool()).orElseThrow();
        Optional<Decision> short_ =
                checkCapacity(c, pool, booking, c.start(), c.end(), booking.quantity(), ledger, now);
        if (short_.isPresent()) {
            return short_.get();
        }
        Booking moved = booking.withWindow(c.start(), c.end(), now);
        return Decision.of(new BookingExtended(c.requestId(), moved, booking.start(), booking.end(), now), moved);
    }

    private static Optional<String> changeStateProblem(Booking booking, ChangeBooking c, Instant now) {
        if (!booking.state().holdsCapacity()) {
            return Optional.of("booking is " + booking.state());
        }
        if (booking.state() == BookingState.ACTIVE && !c.start().equals(booking.start())) {
            return Optional.of("an active booking keeps its start; only its end may move");
        }
        if (c.end() != null && !c.end().isAfter(now)) {
            return Optional.of("the new end " + c.end() + " has already passed");
        }
        return Optional.empty();
    }

    /**
     * Rejects when {@code quantity} more units over {@code [start, end)} would exceed the pool or the tenant cap.
     * {@code self} (a booking being moved) is subtracted first, so a booking never conflicts with itself.
     */
    private Optional<Decision> checkCapacity(
            BookingCommand c,
            Pool pool,
            Booking self,
            Instant start,
            Instant end,
            int quantity,
            BookingLedger ledger,
            Instant now) {
        List<Interval> conflicts =
                without(ledger.timeline(pool.id()).segments(start, end), self, pool.capacity() - quantity);
        if (!conflicts.isEmpty()) {
            Instant earliest =
                    self != null ? null : earliestFit(ledger.timeline(pool.id()), pool, start, end, quantity, now);
            String message = "only " + (pool.capacity() - maxOf(conflicts)) + " of " + quantity + " units free in "
                    + conflicts.size() + " interval(s) of the window";
            return Optional.of(Decision.of(
                    new BookingRejected(
                            c.requestId(),
                            c.bookingId(),
                            pool.id(),
                            c.caller().tenant(),
                            Rejection.CAPACITY.name(),
                            message,
                            conflicts,
                            earliest,
                            now),
                    null));
        }
        int tenantLimit = policy.tenantLimit(pool.capacity());
        List<Interval> overCap = without(
                ledger.tenantTimeline(pool.id(), c.caller().tenant()).segments(start, end),
                self,
                tenantLimit - quantity);
        if (!overCap.isEmpty()) {
            return Optional.of(reject(
                    c,
                    self,
                    Rejection.POLICY_TENANT_CAP,
                    "tenant " + c.caller().tenant() + " may hold at most " + tenantLimit + " units of " + pool.id(),
                    now));
        }
        return Optional.empty();
    }

    /**
     * Segments whose level, minus {@code self}'s own units, exceeds {@code limit}. Segments are cut at
     * {@code self}'s bounds first: the timeline merges equal neighbouring levels, so a breakpoint at
     * {@code self}'s start or end may be missing.
     */
    private static List<Interval> without(List<Interval> segments, Booking self, int limit) {
        List<Interval> over = new ArrayList<>();
        for (Interval whole : segments) {
            for (Interval s : cut(whole, self)) {
                boolean own = self != null
                        && !s.start().isBefore(self.start())
                        && s.start().isBefore(self.end());
                int level = s.reserved() - (own ? self.quantity() : 0);
                if (level > limit) {
                    over.add(new Interval(s.start(), s.end(), level));
                }
            }
        }
        return over;
    }

    private static List<Interval> cut(Interval segment, Booking self) {
        if (self == null) {
            return List.of(segment);
        }
        List<Interval> pieces = new ArrayList<>();
        Instant cursor = segment.start();
        for (Instant bound : List.of(self.start(), self.end())) {
            if (bound.isAfter(cursor) && bound.isBefore(segment.end())) {
                pieces.add(new Interval(cursor, bound, segment.reserved()));
                cursor = bound;
            }
        }
        pieces.add(new Interval(cursor, segment.end(), segment.reserved()));
        return pieces;
    }

    private Instant earliestFit(
            PoolTimeline timeline, Pool pool, Instant start, Instant end, int quantity, Instant now) {
        Duration length = Duration.between(start, end);
        Instant horizon = now.plus(policy.maxAdvance()).minus(length);
        return timeline.earliestFit(start, length, pool.capacity() - quantity, policy.alignment(), horizon)
                .orElse(null);
    }

    private static int maxOf(List<Interval> intervals) {
        return intervals.stream().mapToInt(Interval::reserved).max().orElse(0);
    }

    private static Optional<Booking> visible(String bookingId, Caller caller, BookingLedger ledger) {
        return ledger.booking(bookingId)
                .filter(b -> caller.admin() || b.tenant().equals(caller.tenant()));
    }

    private static Decision reject(BookingCommand c, Booking booking, Rejection rule, String message, Instant now) {
        String pool = booking != null ? booking.pool() : c.pool();
        return Decision.of(
                new BookingRejected(
                        c.requestId(),
                        c.bookingId(),
                        pool,
                        c.caller().tenant(),
                        rule.name(),
                        message,
                        List.of(),
                        null,
                        now),
                null);
    }
}
