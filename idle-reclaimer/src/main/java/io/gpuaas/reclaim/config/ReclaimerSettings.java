package io.gpuaas.reclaim.config;

import io.gpuaas.reclaim.k8s.WorkerScaler;
import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.bind.annotation.Bindable;
import jakarta.validation.constraints.Min;
import java.time.Duration;

/**
 * What the reclaimer does with idle workloads ({@code gpuaas.reclaimer.*}).
 *
 * @param mode                 {@code direct}: scale to zero; {@code keda}: change nothing, publish the idleness
 * @param dryRun               decide and report, never write to the API server
 * @param maxActionsPerMinute  cap on scale-downs in any minute
 * @param allowKueueNonElastic reclaim Kueue-managed RayClusters that are not elastic (Kueue suspends and requeues them)
 * @param rawStrategy          how a raw-mode InferenceService goes to zero
 * @param applicationId        Kafka Streams application id (consumer group, state and internal topic names)
 * @param informerResync       informer resync period
 * @param informerSyncTimeout  how long startup waits for the informers before processing samples
 * @param retryAfter           longest wait of the applier between two attempts of a failed reclaim
 * @param stateDir             the stream's local state directory; a new temporary directory when unset (the windows
 *                             restore from the changelog either way)
 */
@ConfigurationProperties("gpuaas.reclaimer")
public record ReclaimerSettings(
        @Bindable(defaultValue = "DIRECT") Mode mode,
        @Bindable(defaultValue = "false") boolean dryRun,
        @Bindable(defaultValue = "30") @Min(1) int maxActionsPerMinute,
        @Bindable(defaultValue = "false") boolean allowKueueNonElastic,
        @Bindable(defaultValue = "STOP_ANNOTATION") WorkerScaler.RawStrategy rawStrategy,
        @Bindable(defaultValue = "gpuaas-idle-reclaimer") String applicationId,
        @Bindable(defaultValue = "10m") Duration informerResync,
        @Bindable(defaultValue = "60s") Duration informerSyncTimeout,
        @Bindable(defaultValue = "60s") Duration retryAfter,
        @Nullable String stateDir) {

    public enum Mode {
        DIRECT,
        KEDA;

        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }
}
