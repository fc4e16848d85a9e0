package io.gpuaas.kit.runtime;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;

/**
 * How a service stops its components.
 *
 * @param shutdownGrace {@code gpuaas.lifecycle.shutdown-grace}, default 10 s: how long each component may finish
 *                      in-flight work on shutdown before it is interrupted (keep the total under the pod's
 *                      {@code terminationGracePeriodSeconds})
 */
@ConfigurationProperties("gpuaas.lifecycle")
public record LifecycleSettings(
        @Bindable(defaultValue = "10s") Duration shutdownGrace) {

    public LifecycleSettings {
        shutdownGrace = shutdownGrace == null ? Duration.ofSeconds(10) : shutdownGrace;
        if (shutdownGrace.isNegative()) {
            throw new IllegalArgumentException("gpuaas.lifecycle.shutdown-grace must not be negative");
        }
    }
}
