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

    /** Query parameters as sent; all optional (defaults: the next 24 hours in hourly steps from the current hour). */
    public record Query(String from, String to, String step, String quantity, String duration) {
    }

    /** Free units from {@code start} (inclusive) to {@code end} (exclusive): the minimum over the step. */
    @Introspected
    public record Slot(Instant start, Instant end, int free) {
    }

    /** The earliest start at which {@code quantity} units are free for {@code duration}, or null if none. */
    @Introspected
    public record FirstFit(int quantity, Duration duration, Instant start) {
    }

    @Introspected
    public record Report(String pool, int capacity, Instant from, Instant to, Duration step, List<Slot> slots,
                         FirstFit firstFit) {
    }

    /**
     * The report for {@code q}. Every parameter is bounded before any arithmetic: instants within the validator's
     * horizon, step from a minute to that horizon, at most {@code max-slots} steps, a first-fit duration from the
     * alignment to {@code max-duration}.
     */
    public Report report(Pool pool, Query q, Instant now) {
        Duration step = RequestValidator.duration("INVALID_STEP", "step", q.step(), RequestValidator.MIN_STEP,
                validator.horizon());
        step = step == null ? Duration.ofHours(1) : step;
        Instant from = validator.queryInstant("from", q.from(), now);
        from = from == null ? floor(now, step) : from;
        Instant to = validator.queryInstant("to", q.to(), now);
        to = to == null ? from.plus(Duration.ofDays(1)) : to;
        if (!from.isBefore(to)) {
            throw ProblemException.badRequest("INVALID_WINDOW", "to", "from must be before to");
        }
        Duration window = Duration.between(from, to);
        long count = window.dividedBy(step) + (window.equals(step.multipliedBy(window.dividedBy(step))) ? 0 : 1);
        if (count > limits.maxSlots()) {
            throw ProblemException.badRequest("TOO_MANY_STEPS", "step",
                    "at most " + limits.maxSlots() + " steps per query, asked for " + count);
        }
        FirstFit fit = firstFitQuery(pool, q);
        Instant begin = from;
        Instant end = to;
        Duration stride = step;
        return view.withTimeline(pool.id(), timeline -> new Report(pool.id(), pool.capacity(), begin, end, stride,
                slots(timeline, pool, begin, end, stride), fit == null ? null : search(timeline, pool, fit, begin, now)));
    }

    private FirstFit firstFitQuery(Pool pool, Query q) {
        if (q.quantity() == null && q.duration() == null) {
            return null;
        }
        if (q.quantity() == null) {
            throw ProblemException.badRequest("INVALID_QUANTITY", "quantity",
                    "quantity must be given with duration, between 1 and the pool capacity " + pool.capacity());
        }
        int quantity = RequestValidator.integer("INVALID_QUANTITY", "quantity", q.quantity(), 1, pool.capacity(), 0);
        Duration duration = RequestValidator.duration("INVALID_DURATION", "duration", q.duration(), policy.alignment(),
                policy.maxDuration());
        if (duration == null) {
            throw ProblemException.badRequest("INVALID_DURATION", "duration",
                    "duration must be given with quantity, e.g. PT4H");
        }
        return new FirstFit(quantity, duration, null);
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
        Instant start = timeline.earliestFit(begin, ask.duration(), pool.capacity() - ask.quantity(),
                policy.alignment(), horizon).orElse(null);
        return new FirstFit(ask.quantity(), ask.duration(), start);
    }

    /** {@code t} rounded down to a whole number of steps since the epoch (whole seconds suffice for a default). */
    private static Instant floor(Instant t, Duration step) {
        long s = Math.max(1, step.getSeconds());
        return Instant.ofEpochSecond(Math.floorDiv(t.getEpochSecond(), s) * s);
    }
}
