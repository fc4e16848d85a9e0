package io.gpuaas.booking.model;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingCommand;
import io.gpuaas.events.booking.Interval;
import io.gpuaas.events.pool.Pool;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The capacity rules of a decision: the pool's units and the tenant cap over a window, against the ledger's
 * timelines. A booking being moved is subtracted from them first, so it never conflicts with itself.
 */
final class CapacityCheck {

    private final BookingPolicy policy;

    CapacityCheck(BookingPolicy policy) {
        this.policy = policy;
    }

    /**
     * Rejects when {@code quantity} more units over {@code [start, end)} would exceed the pool or the tenant cap.
     * {@code self} (a booking being moved) is subtracted first, so a booking never conflicts with itself.
     */
    Optional<Decision> check(
            BookingCommand c,
            Pool pool,
            Booking self,
            Instant start,
            Instant end,
            int quantity,
            BookingLedger ledger,
            Instant now) {
        List<Interval> conflicts = without(
                ledger.timeline(pool.id()).segments(start, end),
                self,
                self == null ? 0 : self.quantity(),
                pool.capacity() - quantity);
        if (!conflicts.isEmpty()) {
            Instant earliest =
                    self != null ? null : earliestFit(ledger.timeline(pool.id()), pool, start, end, quantity, now);
            String message = "only " + (pool.capacity() - maxOf(conflicts)) + " of " + quantity + " units free in "
                    + conflicts.size() + " interval(s) of the window";
            return Optional.of(BookingDecider.rejectCapacity(c, pool.id(), message, conflicts, earliest, now));
        }
        return tenantCap(c, pool, self, self == null ? 0 : self.quantity(), start, end, quantity, ledger, now);
    }

    /**
     * Rejects when the tenant would hold more than its cap of the pool's timeline capacity ({@link PoolUnits}) with
     * {@code weight} more over {@code [start, end)}; {@code self} (weighing {@code selfWeight}) is subtracted first.
     */
    Optional<Decision> tenantCap(
            BookingCommand c,
            Pool pool,
            Booking self,
            int selfWeight,
            Instant start,
            Instant end,
            int weight,
            BookingLedger ledger,
            Instant now) {
        int tenantLimit = policy.tenantLimit(PoolUnits.timelineCapacity(pool));
        List<Interval> overCap = without(
                ledger.tenantTimeline(pool.id(), c.caller().tenant()).segments(start, end),
                self,
                selfWeight,
                tenantLimit - weight);
        if (!overCap.isEmpty()) {
            String unit = pool.flexible() ? " memory slices of " : " units of ";
            return Optional.of(BookingDecider.reject(
                    c,
                    self,
                    Rejection.POLICY_TENANT_CAP,
                    "tenant " + c.caller().tenant() + " may hold at most " + tenantLimit + unit + pool.id(),
                    now));
        }
        return Optional.empty();
    }

    /**
     * Segments whose level, minus {@code self}'s own units, exceeds {@code limit}. Segments are cut at
     * {@code self}'s bounds first: the timeline merges equal neighbouring levels, so a breakpoint at
     * {@code self}'s start or end may be missing.
     */
    private static List<Interval> without(List<Interval> segments, Booking self, int selfWeight, int limit) {
        List<Interval> over = new ArrayList<>();
        for (Interval whole : segments) {
            for (Interval s : cut(whole, self)) {
                boolean own = self != null
                        && !s.start().isBefore(self.start())
                        && s.start().isBefore(self.end());
                int level = s.reserved() - (own ? selfWeight : 0);
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
}
