package io.gpuaas.booking.config;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;

/**
 * How the booking feed (the topic replica behind the read view, the HTTP answers and the edge's idempotency keys)
 * retries and watches the broker, under {@code gpuaas.booking.feed}. The feed is unready while it retries.
 *
 * @param handlerRetries calls of the view for one record before that record is dead-lettered
 * @param backoffInitial first wait after a failure (before a new consumer, or the view's next attempt); doubles
 * @param backoffMax     longest such wait
 * @param probeInterval  how often the feed asks the broker for end offsets, so a lost broker is noticed
 * @param probeTimeout   how long a broker call may take before the consumer counts as failed
 */
@ConfigurationProperties("gpuaas.booking.feed")
public record FeedSettings(
        @Bindable(defaultValue = "5") int handlerRetries,
        @Bindable(defaultValue = "PT0.2S") Duration backoffInitial,
        @Bindable(defaultValue = "PT5S") Duration backoffMax,
        @Bindable(defaultValue = "PT5S") Duration probeInterval,
        @Bindable(defaultValue = "PT10S") Duration probeTimeout) {}
