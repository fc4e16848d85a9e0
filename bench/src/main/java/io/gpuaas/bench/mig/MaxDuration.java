package io.gpuaas.bench.mig;

import io.gpuaas.booking.config.BookingSettings;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;
import java.time.temporal.ChronoUnit;

/**
 * booking-service's limit on one booking's length as the replay applies it. A pod is booked now for its lifetime
 * (a {@code CreateBooking} with a duration); booking-service's decider refuses a duration longer than
 * {@code gpuaas.booking.max-duration} ({@code BookingPolicy.checkDuration}, {@code POLICY_MAX_DURATION}) before any
 * placement, on a static pool and a flexible one alike. Nor can such a booking be reached by extending a shorter one:
 * a change keeps an active booking's start, and {@code BookingPolicy.checkMove} measures the new end from that start
 * rounded up to the alignment (15 minutes by default), for either kind of pool.
 *
 * @param limit the longest booking accepted
 */
record MaxDuration(Duration limit) {

    /** No limit: every pod may be held for its whole window in the trace. */
    static final MaxDuration NONE = new MaxDuration(ChronoUnit.FOREVER.getDuration());

    /**
     * booking-service's default, read from {@code BookingSettings}' {@code @Bindable} default for
     * {@code maxDuration} (P14D), so the replay follows a change there.
     */
    static MaxDuration shipped() {
        try {
            Bindable bindable = BookingSettings.class.getMethod("maxDuration").getAnnotation(Bindable.class);
            if (bindable == null || bindable.defaultValue().isEmpty()) {
                throw new IllegalStateException("BookingSettings.maxDuration has no @Bindable default");
            }
            return new MaxDuration(Duration.parse(bindable.defaultValue()));
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException("BookingSettings has no maxDuration", e);
        }
    }

    /** Whether booking-service refuses {@code ask} before any placement: its window is longer than the limit. */
    boolean refuses(Ask ask) {
        return Duration.ofSeconds(ask.end() - ask.start()).compareTo(limit) > 0;
    }

    /** "14 days", "36 hours" or "90 minutes": the limit as the report names it. */
    String describe() {
        if (limit.toDaysPart() > 0 && limit.equals(Duration.ofDays(limit.toDays()))) {
            return limit.toDays() + " days";
        }
        if (limit.equals(Duration.ofHours(limit.toHours()))) {
            return limit.toHours() + " hours";
        }
        return limit.toMinutes() + " minutes";
    }
}
