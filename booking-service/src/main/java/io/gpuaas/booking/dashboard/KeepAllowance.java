package io.gpuaas.booking.dashboard;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.pool.PoolKeep;
import io.gpuaas.events.reclaim.ReclaimEvent.ReclaimKept;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.Optional;

/**
 * A "keep it" answer for a booking's workload against its pool's bounds ({@link PoolKeep}): at most
 * {@code maxHoursPerAnswer} in one answer, and at most {@code maxHoursPerDay} on one UTC day for all the booking's
 * workloads together. Pure: the keeps already granted (idle-reclaimer's {@code ReclaimKept}, read back) and the
 * instant are given.
 */
public final class KeepAllowance {

    /** Over {@code bound} ({@code per-answer} or {@code per-booking-day}); {@code hoursLeft} may still be asked. */
    public record Beyond(String bound, int maxHours, int hoursLeft) {}

    private KeepAllowance() {}

    /** Empty when {@code hours} may be asked for {@code booking} at {@code now}, else the bound it passes. */
    public static Optional<Beyond> check(
            Booking booking, PoolKeep policy, Collection<ReclaimKept> granted, int hours, Instant now) {
        int left = Math.max(0, policy.maxHoursPerDay() - keptOn(booking, granted, now));
        if (hours > policy.maxHoursPerAnswer()) {
            return Optional.of(
                    new Beyond("per-answer", policy.maxHoursPerAnswer(), Math.min(left, policy.maxHoursPerAnswer())));
        }
        if (hours > left) {
            return Optional.of(new Beyond("per-booking-day", policy.maxHoursPerDay(), left));
        }
        return Optional.empty();
    }

    /**
     * The hours granted on {@code now}'s UTC day to workloads of {@code booking}: the keeps of its namespace answered
     * within its window. idle-reclaimer knows workloads, not bookings, so a namespace holding two bookings at once
     * counts a keep against both: the bound is never passed, at worst reached early.
     */
    static int keptOn(Booking booking, Collection<ReclaimKept> granted, Instant now) {
        var day = now.atZone(ZoneOffset.UTC).toLocalDate();
        int hours = 0;
        for (ReclaimKept k : granted) {
            if (k.workload().namespace().equals(booking.namespace())
                    && k.time().atZone(ZoneOffset.UTC).toLocalDate().equals(day)
                    && !k.time().isBefore(booking.start())
                    && k.time().isBefore(booking.end())) {
                hours += k.hours();
            }
        }
        return hours;
    }
}
