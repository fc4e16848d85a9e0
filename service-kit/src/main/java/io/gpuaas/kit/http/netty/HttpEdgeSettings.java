package io.gpuaas.kit.http.netty;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;

/**
 * The service's HTTP server beyond what Micronaut configures.
 *
 * @param headerReadTimeout {@code gpuaas.http.header-read-timeout}, default 10 s: a connection whose request line
 *                          and headers have not all arrived this long after it opened (or after the first byte of a
 *                          next request on a kept-alive connection) is closed; 0 turns the deadline off
 */
@ConfigurationProperties("gpuaas.http")
public record HttpEdgeSettings(
        @Bindable(defaultValue = "10s") Duration headerReadTimeout) {

    public HttpEdgeSettings {
        headerReadTimeout = headerReadTimeout == null ? Duration.ofSeconds(10) : headerReadTimeout;
        if (headerReadTimeout.isNegative()) {
            throw new IllegalArgumentException("gpuaas.http.header-read-timeout must not be negative");
        }
    }
}
