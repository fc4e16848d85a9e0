package io.gpuaas.bench.booking;

import io.gpuaas.booking.budget.BudgetMeasure;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.budget.TenantBudget;
import io.gpuaas.events.pool.PoolCatalog;
import java.math.BigDecimal;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * The answers of the budget replay as they are read (on the decision reader's thread): the confirmed bookings and the
 * refusals' reasons, and from them refusals by reason with their GPU-hours and, per tenant and month, what the
 * confirmed bookings count, measured as the budget stage measures them
 * ({@link BudgetMeasure#of(io.gpuaas.events.pool.Pool, Booking)}: MIG units weighed, split at UTC month ends).
 */
final class BudgetTally {

    /** Requests answered one way, and the GPU-hours they asked for. */
    record Answers(int count, double gpuHours) {
        static final Answers NONE = new Answers(0, 0);

        Answers plus(double hours) {
            return new Answers(count + 1, gpuHours + hours);
        }
    }

    /** The answer's name of a confirmation, beside the refusals' reasons. */
    static final String CONFIRMED = "confirmed";

    private final PoolCatalog pools;
    private final Map<String, BudgetReplay.Request> byRequest;
    /** Request id → {@link #CONFIRMED} or the refusal's reason. */
    private final Map<String, String> answers = new ConcurrentHashMap<>();

    private final Map<String, Booking> confirmed = new ConcurrentHashMap<>();

    BudgetTally(PoolCatalog pools, Map<String, BudgetReplay.Request> byRequest) {
        this.pools = pools;
        this.byRequest = byRequest;
    }

    /** One answer read back; answers to other requests are not the replay's. */
    void decided(BookingEvent event) {
        switch (event) {
            case BookingEvent.BookingConfirmed c
            when byRequest.containsKey(c.requestId()) -> {
                confirmed.put(c.booking().id(), c.booking());
                answers.put(c.requestId(), CONFIRMED);
            }
            case BookingEvent.BookingRejected r
            when byRequest.containsKey(r.requestId()) -> answers.put(r.requestId(), r.reason());
            default -> {}
        }
    }

    /** Requests answered. */
    int answered() {
        return answers.size();
    }

    /** The requests that {@code which} selects, by answer ({@link #CONFIRMED} or the reason), in order of answer. */
    SortedMap<String, Answers> answers(Predicate<BudgetReplay.Request> which) {
        SortedMap<String, Answers> by = new TreeMap<>();
        answers.forEach((requestId, answer) -> {
            BudgetReplay.Request r = byRequest.get(requestId);
            if (which.test(r)) {
                by.merge(answer, Answers.NONE.plus(r.gpuHours()), (a, b) -> a.plus(b.gpuHours()));
            }
        });
        return by;
    }

    /** What the confirmed bookings count per {@code tenant/yyyy-MM}, in GPU-hours. */
    SortedMap<String, BigDecimal> booked() {
        SortedMap<String, BigDecimal> months = new TreeMap<>();
        for (Booking b : confirmed.values()) {
            BudgetMeasure.of(pools.find(b.pool()).orElseThrow(), b)
                    .forEach((month, amount) ->
                            months.merge(TenantBudget.key(b.tenant(), month), amount.gpuHours(), BigDecimal::add));
        }
        return months;
    }
}
