package io.gpuaas.quota.config;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import java.time.Duration;

/**
 * How bookings become Kueue objects ({@code gpuaas.quota.*}).
 *
 * @param cohortName       the shared Cohort whose own quota is the unreserved capacity
 * @param localQueueName   the LocalQueue created in every tenant namespace
 * @param allowBorrowing   tenant queues may borrow unreserved or idle capacity (always reclaimable by its owner)
 * @param hardwareProfiles render OpenShift AI HardwareProfiles when their CRD is installed
 * @param drainTimeout     how long an ended tenant's ClusterQueue drains before it is deleted anyway
 * @param writers          parallel writers of the reconcile loop (one key is never written by two at once)
 * @param resync           informer resync period
 * @param queueLead        how long before a booking's window its tenant's LocalQueues and HardwareProfiles are
 *                         created (0: at the start, with the ClusterQueue); they carry no quota, and creating them
 *                         ahead leaves only the quota writes on the boundary's path
 */
@ConfigurationProperties("gpuaas.quota")
public record QuotaSettings(
        @NotBlank @Bindable(defaultValue = "gpuaas-pool") String cohortName,
        @NotBlank @Bindable(defaultValue = "gpuaas") String localQueueName,
        @Bindable(defaultValue = "true") boolean allowBorrowing,
        @Bindable(defaultValue = "true") boolean hardwareProfiles,
        @Bindable(defaultValue = "10m") Duration drainTimeout,
        @Min(1) @Bindable(defaultValue = "8") int writers,
        @Bindable(defaultValue = "10m") Duration resync,
        @Bindable(defaultValue = "2m") Duration queueLead) {

    /** The defaults, for code built without the container (tests, benchmarks). */
    public static QuotaSettings defaults() {
        return new QuotaSettings(
                "gpuaas-pool",
                "gpuaas",
                true,
                true,
                Duration.ofMinutes(10),
                8,
                Duration.ofMinutes(10),
                Duration.ofMinutes(2));
    }

    public QuotaSettings withDrainTimeout(Duration timeout) {
        return new QuotaSettings(
                cohortName, localQueueName, allowBorrowing, hardwareProfiles, timeout, writers, resync, queueLead);
    }

    public QuotaSettings withQueueLead(Duration lead) {
        return new QuotaSettings(
                cohortName, localQueueName, allowBorrowing, hardwareProfiles, drainTimeout, writers, resync, lead);
    }
}
