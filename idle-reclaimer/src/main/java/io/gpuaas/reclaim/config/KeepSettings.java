package io.gpuaas.reclaim.config;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import jakarta.validation.constraints.Min;

/**
 * How long a team may keep an idle workload from reclaim by answering its ReclaimPending
 * ({@code gpuaas.reclaimer.keep.*}): at most {@code maxHoursPerAnswer} per answer and {@code maxHoursPerDay} per
 * workload and UTC day (of the answers). The HTTP edge refuses beyond them; the stream, which decides, holds the same
 * bounds, so what the edge let through is granted only within them.
 */
@ConfigurationProperties("gpuaas.reclaimer.keep")
public record KeepSettings(
        @Bindable(defaultValue = "8") @Min(1) int maxHoursPerAnswer,
        @Bindable(defaultValue = "24") @Min(1) int maxHoursPerDay) {

    /** The defaults: 8 h per answer, 24 h per workload and day. */
    public static KeepSettings defaults() {
        return new KeepSettings(8, 24);
    }
}
