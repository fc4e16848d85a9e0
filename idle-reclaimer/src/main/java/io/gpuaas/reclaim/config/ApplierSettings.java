package io.gpuaas.reclaim.config;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import jakarta.validation.constraints.Min;

/**
 * The applier that carries out reclaim intents ({@code gpuaas.reclaimer.applier.*}).
 *
 * @param workers workloads updated at once: one slow update holds one worker, the others keep going
 */
@ConfigurationProperties("gpuaas.reclaimer.applier")
public record ApplierSettings(
        @Bindable(defaultValue = "4") @Min(1) int workers) {}
