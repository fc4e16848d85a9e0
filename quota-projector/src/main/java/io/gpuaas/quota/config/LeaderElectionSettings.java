package io.gpuaas.quota.config;

import io.gpuaas.kit.k8s.LeaseSettings;
import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;

/**
 * The Lease that makes one replica the writer ({@code gpuaas.quota.leader-election.*}), campaigned for by
 * service-kit's {@code LeaseLeadership}.
 *
 * @param enabled       false runs this replica as the writer unconditionally (single-replica or tests)
 * @param leaseName     name of the coordination.k8s.io Lease
 * @param namespace     namespace of the Lease; the client's namespace when unset
 * @param identity      holder identity; {@code $HOSTNAME-<random>} when unset
 * @param leaseDuration how long a lease is valid without renewal
 * @param renewDeadline how long the leader keeps trying to renew before it steps down
 * @param retryPeriod   how often candidates try to acquire
 */
@ConfigurationProperties("gpuaas.quota.leader-election")
public record LeaderElectionSettings(
        @Bindable(defaultValue = "true") boolean enabled,
        @Bindable(defaultValue = "gpuaas-quota-projector") String leaseName,
        @Nullable String namespace,
        @Nullable String identity,
        @Bindable(defaultValue = "15s") Duration leaseDuration,
        @Bindable(defaultValue = "10s") Duration renewDeadline,
        @Bindable(defaultValue = "2s") Duration retryPeriod)
        implements LeaseSettings {

    public static LeaderElectionSettings defaults() {
        return new LeaderElectionSettings(
                true,
                "gpuaas-quota-projector",
                null,
                null,
                Duration.ofSeconds(15),
                Duration.ofSeconds(10),
                Duration.ofSeconds(2));
    }

    public static LeaderElectionSettings disabled() {
        return new LeaderElectionSettings(
                false,
                "gpuaas-quota-projector",
                null,
                null,
                Duration.ofSeconds(15),
                Duration.ofSeconds(10),
                Duration.ofSeconds(2));
    }
}
