package io.gpuaas.reclaim.config;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import jakarta.validation.constraints.Min;

/**
 * The reclaimer's own ceiling on "keep it" answers ({@code gpuaas.reclaimer.keep.*}): at most
 * {@code maxHoursPerAnswer} per answer and {@code maxHoursPerDay} per workload and UTC day (of the answers). The answers
 * come from booking-service, which bounds them per booking and UTC day by the pool's policy first; the stream grants
 * each only within this ceiling too (a platform cap over every pool).
 */
@ConfigurationProperties("gpuaas.reclaimer.keep")
public record KeepSettings(
        @Bindable(defaultValue = "24") @Min(1) int maxHoursPerAnswer,
        @Bindable(defaultValue = "24") @Min(1) int maxHoursPerDay) {

    /**
     * The defaults: 24 h per answer and 24 h per workload and day, so each of the dashboard's Keep 4 h / 8 h / 24 h
     * buttons can be granted on a day with nothing kept yet; a platform wanting shorter answers lowers the first.
     */
    public static KeepSettings defaults() {
        return new KeepSettings(24, 24);
    }
}
