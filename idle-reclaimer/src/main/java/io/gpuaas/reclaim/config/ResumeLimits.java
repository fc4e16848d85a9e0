package io.gpuaas.reclaim.config;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Positive;

/**
 * How often one tenant may ask for resumes over HTTP ({@code gpuaas.reclaimer.resume.*}): a token bucket of
 * {@code burst} requests refilled at {@code requestsPerSecond}, per replica. Each resume writes to the API server
 * and to {@code reclaim-events}; a script looping on it must not load either for everyone else.
 */
@ConfigurationProperties("gpuaas.reclaimer.resume")
public record ResumeLimits(
        @Bindable(defaultValue = "1") @Positive double requestsPerSecond,
        @Bindable(defaultValue = "10") @Min(1) int burst) {}
