package io.gpuaas.booking.http;

import io.gpuaas.booking.config.HttpLimits;
import io.gpuaas.booking.kafka.BookingView;
import io.gpuaas.booking.model.BookingDecider;
import io.gpuaas.booking.model.BookingPolicy;
import io.gpuaas.booking.model.PoolTimeline;
import io.gpuaas.booking.placement.UnitKind;
import io.gpuaas.events.pool.Pool;
import io.micronaut.core.annotation.Introspected;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Free units per step and first-fit search. A static pool is answered from the read-side timeline of its units; a
 * flexible pool in whole GPUs (what a booking without {@code profile} books there), from the placements of its
 * {@link FleetReplica}: a GPU counts only while nothing is placed on it, so a 3g.71gb takes a whole GPU out of the
 * count. Its MIG profiles are in {@code /profile-availability}.
 */
@Singleton
public class Availability {

    private final BookingView view;
    private final FlexiblePools fleets;
    private final BookingPolicy policy;
    private final HttpLimits limits;
    private final RequestValidator validator;

    public Availability(BookingView view, BookingDecider decider, FlexiblePools fleets, HttpLimits limits) {
        this.view = view;
        this.fleets = fleets;
        this.policy = decider.policy();
        this.limits = limits;
        this.validator = new RequestValidator(policy);
    }

    /** Query parameters; all optional (defaults: the next 24 hours in hourly steps from the current hour). */
    public record Query(Instant from, Instant to, Duration step, Integer quantity, Duration duration) {}

    /** Free units from {@code start} (inclusive) to {@code end} (exclusive): the minimum over the step. */
    @Introspected
    public record Slot(Instant start, Instant end, int free) {}

    /** The earliest start at which {@code quantity} units are free for {@code duration}, or null if none. */
    @Introspected
    public record FirstFit(int quantity, Duration duration, Instant start) {}

    /**
     * @param capacity the pool's units: its capacity, on a flexible pool its GPUs
     * @param resource what a unit is: the pool's resource, on a flexible pool a whole GPU ({@code nvidia.com/gpu})
     */
    @Introspected
    public record Report(
            String pool,
            int capacity,
            String resource,
            Instant from,
            Instant to,
            Duration step,
            List<Slot> slots,
            FirstFit firstFit) {}

    /** How many units are free over {@code [start, end)}. */
    @FunctionalInterface
    private interface FreeUnits {
        int between(Instant start, Instant end);
    }

    /**
     * The query parameters as sent, read and bounded before any arithmetic: instants RFC 3339 within the
     * validator's horizon, a step from a minute to that horizon, a first-fit duration from the alignment to
     * {@code max-duration}, a whole quantity (its pool's capacity is checked by {@link #report}).
     */
    public Query parse(String from, String to, String step, String quantity, String duration, Instant now) {
        return new Query(
                validator.queryInstant("from", from, now),
                validator.queryInstant("to", to, now),
                RequestValidator.duration("INVALID_STEP", "step", step, RequestValidator.MIN_STEP, validator.horizon()),
                quantity == null
                        ? null
                        : RequestValidator.integer("INVALID_QUANTITY", "quantity", quantity, 1, Integer.MAX_VALUE, 1),
                RequestValidator.duration(
                        "INVALID_DURATION", "duration", duration, policy.alignment(), policy.maxDuration()));
    }

    /** Free units per step of {@code q} (at most {@code max-slots} steps) and the first fit it asks for. */
    public Report report(Pool pool, Query q, Instant now) {
        Duration step = q.step() == null ? Duration.ofHours(1) : q.step();
        Instant from = q.from() == null ? floor(now, step) : q.from();
        Instant to = q.to() == null ? from.plus(Duration.ofDays(1)) : q.to();
        if (!from.isBefore(to)) {
            throw ProblemException.badRequest("INVALID_WINDOW", "to", "from must be before to");
        }
        Duration window = Duration.between(from, to);
        long count = window.dividedBy(step) + (window.equals(step.multipliedBy(window.dividedBy(step))) ? 0 : 1);
        if (count > limits.maxSlots()) {
            throw ProblemException.badRequest(
                    "TOO_MANY_STEPS", "step", "at most " + limits.maxSlots() + " steps per query, asked for " + count);
        }
        FirstFit fit = firstFitQuery(pool, q);
        return pool.flexible()
                ? fleets.read(pool, fleet -> flexibleReport(fleet, fit, from, to, step, now))
                : view.withTimeline(pool.id(), timeline -> staticReport(timeline, pool, fit, from, to, step, now));
    }

    private Report staticReport(
            PoolTimeline timeline, Pool pool, FirstFit fit, Instant from, Instant to, Duration step, Instant now) {
        return new Report(
                pool.id(),
                pool.capacity(),
                pool.resource(),
                from,
                to,
                step,
                slots((s, e) -> Math.max(0, pool.capacity() - timeline.maxReserved(s, e)), from, to, step),
                fit == null ? null : search(timeline, pool, fit, from, now));
    }

    /** A flexible pool in whole GPUs: as many as fit over each step, from the placements on the replica. */
    private Report flexibleReport(
            FleetReplica fleet, FirstFit fit, Instant from, Instant to, Duration step, Instant now) {
        Pool pool = fleet.pool();
        return new Report(
                pool.id(),
                pool.capacity(),
                pool.resourceFor(null),
                from,
                to,
                step,
                slots((s, e) -> fleet.unitsThatFit(UnitKind.whole(), s, e), from, to, step),
                fit == null ? null : search(fleet, fit, from, now));
    }

    private FirstFit firstFitQuery(Pool pool, Query q) {
        if (q.quantity() == null && q.duration() == null) {
            return null;
        }
        if (q.quantity() == null || q.quantity() < 1 || q.quantity() > pool.capacity()) {
            throw ProblemException.badRequest(
                    "INVALID_QUANTITY",
                    "quantity",
                    "quantity must be given with duration, between 1 and the pool capacity " + pool.capacity()
                            + (pool.flexible() ? " (whole GPUs)" : ""));
        }
        if (q.duration() == null || q.duration().isNegative() || q.duration().isZero()) {
            throw ProblemException.badRequest(
                    "INVALID_DURATION", "duration", "duration must be given with quantity and be positive, e.g. PT4H");
        }
        return new FirstFit(q.quantity(), q.duration(), null);
    }

    private static List<Slot> slots(FreeUnits free, Instant from, Instant to, Duration step) {
        List<Slot> slots = new ArrayList<>();
        for (Instant s = from; s.isBefore(to); s = s.plus(step)) {
            Instant e = s.plus(step).isAfter(to) ? to : s.plus(step);
            slots.add(new Slot(s, e, free.between(s, e)));
        }
        return slots;
    }

    private FirstFit search(PoolTimeline timeline, Pool pool, FirstFit ask, Instant from, Instant now) {
        Instant begin = from.isBefore(now) ? now : from;
        Instant horizon = now.plus(policy.maxAdvance()).minus(ask.duration());
        Instant start = timeline.earliestFit(
                        begin, ask.duration(), pool.capacity() - ask.quantity(), policy.alignment(), horizon)
                .orElse(null);
        return new FirstFit(ask.quantity(), ask.duration(), start);
    }

    /**
     * On a flexible pool: the placement rule's earliest start of {@code quantity} whole GPUs, as
     * {@code /earliest-start} answers it: from {@code from} (now if earlier) rounded up to the alignment, then at each
     * booking boundary, starting at the latest when the booking would still end within {@code max-advance}.
     */
    private FirstFit search(FleetReplica fleet, FirstFit ask, Instant from, Instant now) {
        Instant begin = policy.alignUp(from.isBefore(now) ? now : from);
        Instant horizon = now.plus(policy.maxAdvance()).minus(ask.duration());
        Instant start = fleet.earliestStart(UnitKind.whole(), ask.quantity(), ask.duration(), begin, horizon)
                .orElse(null);
        return new FirstFit(ask.quantity(), ask.duration(), start);
    }

    /** {@code t} rounded down to a whole number of steps since the epoch (whole seconds suffice for a default). */
    private static Instant floor(Instant t, Duration step) {
        long s = Math.max(1, step.getSeconds());
        return Instant.ofEpochSecond(Math.floorDiv(t.getEpochSecond(), s) * s);
    }
}
