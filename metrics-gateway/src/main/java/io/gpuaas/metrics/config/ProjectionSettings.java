package io.gpuaas.metrics.config;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;

/**
 * How the projection replicas retry ({@code gpuaas.metrics-gateway.projections.*}); see service-kit's TopicReplica.
 *
 * @param backoffInitial  first wait before a new consumer after a failure, and between calls of a failing projection
 * @param backoffMax      longest such wait
 * @param handlerAttempts calls of a projection for one record before the record is dead-lettered
 * @param probeInterval   how often the end offsets are asked for, to notice a broker that went away
 * @param probeTimeout    timeout of that and of every other metadata lookup
 */
@ConfigurationProperties("gpuaas.metrics-gateway.projections")
public record ProjectionSettings(
        @Bindable(defaultValue = "500ms") Duration backoffInitial,
        @Bindable(defaultValue = "30s") Duration backoffMax,
        @Bindable(defaultValue = "5") int handlerAttempts,
        @Bindable(defaultValue = "5s") Duration probeInterval,
        @Bindable(defaultValue = "10s") Duration probeTimeout) {

    /** The defaults above, for code wired by hand. */
    public static ProjectionSettings defaults() {
        return new ProjectionSettings(
                Duration.ofMillis(500), Duration.ofSeconds(30), 5, Duration.ofSeconds(5), Duration.ofSeconds(10));
    }
}
