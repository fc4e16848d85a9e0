package io.gpuaas.reclaim.config;

import io.gpuaas.events.gpu.GpuActivity;
import io.gpuaas.reclaim.model.IdlePolicy;
import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;

/**
 * Service-wide idleness policy ({@code gpuaas.reclaimer.policy.*}); namespaces and workloads override it with
 * annotations. Short windows and intervals make tests run in seconds.
 */
@ConfigurationProperties("gpuaas.reclaimer.policy")
public record IdlePolicySettings(
        @Bindable(defaultValue = GpuActivity.DEFAULT_IDLE_THRESHOLD_TEXT)
        double threshold,

        @Bindable(defaultValue = "15m") Duration window,
        @Bindable(defaultValue = "5s") Duration sampleInterval,
        @Bindable(defaultValue = "0.9") double minCoverage,
        @Bindable(defaultValue = "10m") Duration warmUp,
        @Bindable(defaultValue = "5m") Duration gpuUtilMinWindow) {

    public IdlePolicy toPolicy() {
        return new IdlePolicy(threshold, window, sampleInterval, minCoverage, warmUp, true, gpuUtilMinWindow);
    }
}
