package io.gpuaas.metrics.config;

import io.gpuaas.kit.k8s.LeaseSettings;
import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;

/**
 * The Lease that makes one replica the scraper and rollup publisher ({@code gpuaas.metrics-gateway.leader-election.*}),
 * campaigned for by service-kit's {@code LeaseLeadership}. Without Kubernetes ({@code kubernetes.enabled: false})
 * there is no election and the replica does both itself.
 *
 * @param enabled       false: this replica scrapes and publishes rollups unconditionally (one replica, or tests)
 * @param leaseName     name of the coordination.k8s.io Lease
 * @param namespace     namespace of the Lease; the client's namespace when unset
 * @param identity      holder identity; {@code $HOSTNAME-<random>} when unset
 * @param leaseDuration how long a lease is valid without renewal: the longest scrape gap after a crash
 * @param renewDeadline how long the leader keeps trying to renew before it steps down
 * @param retryPeriod   how often candidates try to acquire
 */
@ConfigurationProperties("gpuaas.metrics-gateway.leader-election")
public record LeaderElectionSettings(
        @Bindable(defaultValue = "true") boolean enabled,
        @Bindable(defaultValue = "gpuaas-metrics-gateway") String leaseName,
        @Nullable String namespace,
        @Nullable String identity,
        @Bindable(defaultValue = "15s") Duration leaseDuration,
        @Bindable(defaultValue = "10s") Duration renewDeadline,
        @Bindable(defaultValue = "2s") Duration retryPeriod)
        implements LeaseSettings {

    /** The same Lease with the election off: what a replica without Kubernetes runs with. */
    public LeaderElectionSettings withoutElection() {
        return new LeaderElectionSettings(
                false, leaseName, namespace, identity, leaseDuration, renewDeadline, retryPeriod);
    }
}
