package io.gpuaas.quota.config;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import jakarta.validation.constraints.NotBlank;
import java.time.Duration;

/**
 * How flexible pools' GPUs are laid out ({@code gpuaas.quota.mig.*}).
 *
 * @param configMapNamespace namespace of the mig-parted ConfigMap the GPU Operator's MIG manager reads
 * @param configMapName      its name (ClusterPolicy {@code migManager.config.name})
 * @param leadTime           how long before a booking's window its layout is asked for
 * @param noticeMargin       a layout still pending or blocked this close to a booking's start is announced
 * @param poll               how often the nodes' state and allocatable are read (no node informer)
 */
@ConfigurationProperties("gpuaas.quota.mig")
public record MigLayoutSettings(
        @NotBlank @Bindable(defaultValue = "gpu-operator") String configMapNamespace,

        @NotBlank @Bindable(defaultValue = "gpuaas-mig-parted-config")
        String configMapName,

        @Bindable(defaultValue = "10m") Duration leadTime,
        @Bindable(defaultValue = "3m") Duration noticeMargin,
        @Bindable(defaultValue = "15s") Duration poll) {

    /** The defaults, for code built without the container (tests, benchmarks). */
    public static MigLayoutSettings defaults() {
        return new MigLayoutSettings(
                "gpu-operator",
                "gpuaas-mig-parted-config",
                Duration.ofMinutes(10),
                Duration.ofMinutes(3),
                Duration.ofSeconds(15));
    }

    public MigLayoutSettings withTiming(Duration lead, Duration margin, Duration every) {
        return new MigLayoutSettings(configMapNamespace, configMapName, lead, margin, every);
    }
}
