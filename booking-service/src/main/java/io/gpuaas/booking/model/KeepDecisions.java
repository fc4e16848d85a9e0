package io.gpuaas.booking.model;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingCommand.KeepWorkload;
import io.gpuaas.events.booking.BookingEvent.WorkloadKeepDecided;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.events.pool.PoolKeep;
import io.gpuaas.events.reclaim.KeepRequested;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;

/**
 * "Keep it" answers, decided by the pool's single writer: the one place that knows the booking and sees every answer
 * charged to it in order, so the bounds of the pool's {@link PoolKeep} hold exactly, whatever the concurrency: at most
 * {@code maxHoursPerAnswer} in one answer, and at most {@code maxHoursPerDay} for all the booking's answers of one UTC
 * day (of the decision's instant) together. An answer is granted in full or refused; a grant becomes a
 * {@link KeepRequested} for idle-reclaimer ({@link #requests}). Pure: the instant is the decision's {@code now}.
 */
public final class KeepDecisions {

    /** The bound an answer beyond {@code maxHoursPerAnswer} passes. */
    public static final String PER_ANSWER = "per-answer";

    /** The bound an answer beyond what is left of {@code maxHoursPerDay} for the booking passes. */
    public static final String PER_BOOKING_DAY = "per-booking-day";

    private final PoolCatalog pools;

    public KeepDecisions(PoolCatalog pools) {
        this.pools = pools;
    }

    public Decision decide(KeepWorkload c, BookingLedger ledger, Instant now) {
        Optional<Booking> found = ledger.booking(c.bookingId())
                .filter(b -> c.caller().admin() || b.tenant().equals(c.caller().tenant()));
        if (found.isEmpty()) {
            return BookingDecider.reject(c, null, Rejection.NOT_FOUND, "no booking " + c.bookingId(), now);
        }
        Booking booking = found.get();
        if (!booking.namespace().equals(c.workload().namespace())) {
            // The workload is not the booking's: told like an unknown one, so nothing of another namespace leaks.
            return BookingDecider.reject(
                    c,
                    booking,
                    Rejection.NOT_FOUND,
                    "no workload " + c.workload().key() + " under this booking",
                    now);
        }
        if (booking.state() != BookingState.ACTIVE || !booking.end().isAfter(now)) {
            return BookingDecider.reject(
                    c,
                    booking,
                    Rejection.INVALID_STATE,
                    "booking is " + booking.state() + "; only an ACTIVE booking's workloads can be kept",
                    now);
        }
        PoolKeep policy = pools.find(booking.pool()).map(Pool::keepPolicy).orElse(PoolKeep.DEFAULT);
        LocalDate day = now.atZone(ZoneOffset.UTC).toLocalDate();
        int used = ledger.kept(booking.id()).map(k -> k.on(day)).orElse(0);
        int left = Math.max(0, policy.maxHoursPerDay() - used);
        WorkloadKeepDecided answer;
        if (c.hours() > policy.maxHoursPerAnswer()) {
            int mayAsk = Math.min(left, policy.maxHoursPerAnswer());
            answer = decided(c, booking, false, PER_ANSWER, policy.maxHoursPerAnswer(), day, used, mayAsk, now);
        } else if (c.hours() > left) {
            answer = decided(c, booking, false, PER_BOOKING_DAY, policy.maxHoursPerDay(), day, used, left, now);
        } else {
            answer = decided(
                    c, booking, true, null, policy.maxHoursPerDay(), day, used + c.hours(), left - c.hours(), now);
        }
        return new Decision(List.of(answer), List.of(), null);
    }

    /** The grants of {@code decision} as idle-reclaimer's input, keyed by workload: sent in the same transaction. */
    public static List<KeepRequested> requests(Decision decision) {
        return decision.events().stream()
                .filter(WorkloadKeepDecided.class::isInstance)
                .map(WorkloadKeepDecided.class::cast)
                .filter(WorkloadKeepDecided::granted)
                .map(k -> new KeepRequested(
                        k.workload(), k.tenant(), k.requestId(), k.hours(), k.requestedBy(), k.time()))
                .toList();
    }

    private static WorkloadKeepDecided decided(
            KeepWorkload c,
            Booking booking,
            boolean granted,
            String bound,
            int maxHours,
            LocalDate day,
            int hoursToday,
            int hoursLeft,
            Instant now) {
        return new WorkloadKeepDecided(
                c.requestId(),
                booking.id(),
                booking.tenant(),
                c.workload(),
                c.hours(),
                granted,
                bound,
                maxHours,
                day,
                hoursToday,
                hoursLeft,
                c.caller().subject(),
                now);
    }
}
