package io.gpuaas.metrics.config;

import io.gpuaas.events.gpu.GpuActivity;
import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.bind.annotation.Bindable;
import io.micronaut.core.convert.format.MapFormat;
import io.micronaut.core.naming.conventions.StringConvention;
import java.time.Duration;
import java.util.Map;

/**
 * How GPU samples become per-tenant figures ({@code gpuaas.metrics-gateway.usage.*}).
 *
 * @param idleThreshold    utilization ratio at or under which a device-second counts as idle (with its decoder and
 *                         encoder unused: {@code GpuActivity}, the reclaimer's rule)
 * @param staleAfter       a device without a sample for this long no longer counts as allocated
 * @param maxGap           longest time between two samples charged to a tenant (exporter outages are not)
 * @param rollupWindow     length of the windows published on {@code gpuaas.tenant-utilization}
 * @param rollups          whether this instance publishes rollups (run exactly one publishing replica)
 * @param namespaceTenants namespace to tenant, for namespaces without the {@code gpuaas.io/tenant} label
 */
@ConfigurationProperties("gpuaas.metrics-gateway.usage")
public record UsageSettings(
        @Bindable(defaultValue = GpuActivity.DEFAULT_IDLE_THRESHOLD_TEXT)
        double idleThreshold,

        @Bindable(defaultValue = "30s") Duration staleAfter,
        @Bindable(defaultValue = "30s") Duration maxGap,
        @Bindable(defaultValue = "1m") Duration rollupWindow,
        @Bindable(defaultValue = "true") boolean rollups,

        @Nullable @MapFormat(transformation = MapFormat.MapTransformation.FLAT, keyFormat = StringConvention.RAW)
        Map<String, String> namespaceTenants) {

    public UsageSettings {
        namespaceTenants = namespaceTenants == null ? Map.of() : Map.copyOf(namespaceTenants);
    }
}
