package io.gpuaas.booking.config;

import io.gpuaas.booking.model.BookingPolicy;
import io.gpuaas.events.KafkaPrincipal;
import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;

/**
 * Booking rules and the decision engine's identity and state, under {@code gpuaas.booking}.
 *
 * @param maxDuration     longest booking window
 * @param maxAdvance      how far ahead a booking may end
 * @param alignment       start and end must be multiples of this
 * @param tenantCap       share of a pool one tenant may hold at once (0..1]
 * @param pastTolerance   how far in the past a start may lie when decided
 * @param decisionTimeout how long an HTTP call waits for its decision before answering 202
 * @param tick            how often the lifecycle clock runs (boundaries are met within one tick)
 * @param retention       how long idempotency answers and finished bookings are kept by the decider
 * @param applicationId   Kafka Streams application id (consumer group, prefix of the internal topics and transactional
 *                        ids); by default {@code KafkaPrincipal.BOOKING_SERVICE}'s, which its ACLs are granted for
 * @param stateDir        RocksDB directory; a temp directory when unset
 */
@ConfigurationProperties("gpuaas.booking")
public record BookingSettings(
        @Bindable(defaultValue = "P14D") Duration maxDuration,
        @Bindable(defaultValue = "P90D") Duration maxAdvance,
        @Bindable(defaultValue = "PT15M") Duration alignment,
        @Bindable(defaultValue = "1.0") double tenantCap,
        @Bindable(defaultValue = "PT1M") Duration pastTolerance,
        @Bindable(defaultValue = "PT3S") Duration decisionTimeout,
        @Bindable(defaultValue = "PT0.2S") Duration tick,
        @Bindable(defaultValue = "P7D") Duration retention,
        @Nullable String applicationId,
        @Nullable String stateDir) {

    public BookingSettings {
        if (applicationId == null || applicationId.isBlank()) {
            applicationId = KafkaPrincipal.BOOKING_SERVICE.streamsApplicationId();
        }
    }

    public BookingPolicy policy() {
        return new BookingPolicy(maxDuration, maxAdvance, alignment, tenantCap, pastTolerance);
    }
}
