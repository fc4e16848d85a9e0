package io.gpuaas.booking.http;

import io.gpuaas.booking.config.HttpLimits;
import io.gpuaas.booking.kafka.BookingView;
import io.gpuaas.booking.model.BookingDecider;
import io.gpuaas.booking.model.BookingPolicy;
import io.gpuaas.booking.model.PoolTimeline;
import io.gpuaas.events.pool.Pool;
import io.micronaut.core.annotation.Introspected;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Free units per step and first-fit search, answered from the read-side timeline of the pool. */
@Singleton
public class Availability {

    private final BookingView view;
    private final BookingPolicy policy;
    private final HttpLimits limits;
    private final RequestValidator validator;

    public Availability(BookingView view, BookingDecider decider, HttpLimits limits) {
        this.view = view;
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

    @Introspected
    public record Report(
            String pool, int capacity, Instant from, Instant to, Duration step, List<Slot> slots, FirstFit firstFit) {}

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
        return view.withTimeline(
                pool.id(),
                timeline -> new Report(
                        pool.id(),
                        pool.capacity(),
                        from,
                        to,
                        step,
                        slots(timeline, pool, from, to, step),
                        fit == null ? null : search(timeline, pool, fit, from, now)));
    }

    private FirstFit firstFitQuery(Pool pool, Query q) {
        if (q.quantity() == null && q.duration() == null) {
            return null;
        }
        if (q.quantity() == null || q.quantity() < 1 || q.quantity() > pool.capacity()) {
            throw ProblemException.badRequest(
                    "INVALID_QUANTITY",
                    "quantity",
                    "quantity must be given with duration, between 1 and the pool capacity " + pool.capacity());
        }
        if (q.duration() == null || q.duration().isNegative() || q.duration().isZero()) {
            throw ProblemException.badRequest(
                    "INVALID_DURATION", "duration", "duration must be given with quantity and be positive, e.g. PT4H");
        }
        return new FirstFit(q.quantity(), q.duration(), null);
    }

    private static List<Slot> slots(PoolTimeline timeline, Pool pool, Instant from, Instant to, Duration step) {
        List<Slot> slots = new ArrayList<>();
        for (Instant s = from; s.isBefore(to); s = s.plus(step)) {
            Instant e = s.plus(step).isAfter(to) ? to : s.plus(step);
            slots.add(new Slot(s, e, Math.max(0, pool.capacity() - timeline.maxReserved(s, e))));
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

    /** {@code t} rounded down to a whole number of steps since the epoch (whole seconds suffice for a default). */
    private static Instant floor(Instant t, Duration step) {
        long s = Math.max(1, step.getSeconds());
        return Instant.ofEpochSecond(Math.floorDiv(t.getEpochSecond(), s) * s);
    }
}
