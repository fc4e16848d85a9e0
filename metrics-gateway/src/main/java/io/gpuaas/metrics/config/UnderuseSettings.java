package io.gpuaas.metrics.config;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;

/**
 * Under-use notices ({@code gpuaas.metrics-gateway.underuse.*}; DESIGN.md "Under-use"): the Lease holder looks every
 * {@code interval} at each booking holding its units, and sends a {@code BookingUnderused} on {@code gpuaas.notices}
 * when its busy share over the last {@code window} (to the ledger's cut) is below {@code threshold}, at most once per
 * booking and {@code suppression} period.
 *
 * @param enabled     whether the Lease holder sends them
 * @param threshold   the busy share (0..1) below which a booking is under-used
 * @param window      how far back the busy share is taken; the booking must have held its units all that time
 * @param suppression at most one notice per booking in each such period counted from the booking's start
 * @param interval    how often the Lease holder looks
 */
@ConfigurationProperties("gpuaas.metrics-gateway.underuse")
public record UnderuseSettings(
        @Bindable(defaultValue = "true") boolean enabled,
        @Bindable(defaultValue = "0.2") double threshold,
        @Bindable(defaultValue = "1h") Duration window,
        @Bindable(defaultValue = "4h") Duration suppression,
        @Bindable(defaultValue = "1m") Duration interval) {

    public static UnderuseSettings defaults() {
        return new UnderuseSettings(true, 0.2, Duration.ofHours(1), Duration.ofHours(4), Duration.ofMinutes(1));
    }
}
