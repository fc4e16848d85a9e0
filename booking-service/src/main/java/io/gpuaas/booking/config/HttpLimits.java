package io.gpuaas.booking.config;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;

/**
 * Limits at the HTTP edge, under {@code gpuaas.booking.http}.
 *
 * @param requestsPerSecond sustained requests per tenant per second (token bucket refill)
 * @param burst             requests a tenant may make at once (bucket size)
 * @param maxPageSize       largest page of {@code GET /bookings}
 * @param maxSlots          most availability steps one query may ask for
 */
@ConfigurationProperties("gpuaas.booking.http")
public record HttpLimits(
        @Bindable(defaultValue = "20") double requestsPerSecond,
        @Bindable(defaultValue = "100") int burst,
        @Bindable(defaultValue = "500") int maxPageSize,
        @Bindable(defaultValue = "2000") int maxSlots) {}
