package io.gpuaas.kit.k8s;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;

/**
 * The coordination.k8s.io Lease a {@link LeaseLeadership} campaigns for, bound from {@code gpuaas.leader-election.*}.
 * A service runs at most one election, so one prefix serves every service; each names its own Lease in its
 * {@code application.yml} (quota-projector {@code gpuaas-quota-projector}, metrics-gateway
 * {@code gpuaas-metrics-gateway}). Without Kubernetes ({@code kubernetes.enabled: false}) a service runs with
 * {@link #withoutElection()}.
 *
 * @param enabled       false: no election, this replica performs the duties as soon as it is ready (one replica, or
 *                      tests)
 * @param leaseName     name of the Lease; replicas of one service share it. Renaming it in a running cluster lets an
 *                      old and a new replica lead at once during the rollout
 * @param namespace     namespace of the Lease; the client's namespace (the pod's, in a cluster) when null or blank
 * @param identity      holder identity; {@code $HOSTNAME-<random>} when null or blank
 * @param leaseDuration how long an unrenewed Lease stays valid: the longest a crashed leader blocks a takeover
 * @param renewDeadline how long the leader keeps trying to renew before it steps down; shorter than the lease duration
 * @param retryPeriod   how often a candidate tries to acquire, and the leader to renew; shorter than the renew deadline
 */
@ConfigurationProperties("gpuaas.leader-election")
public record LeaseSettings(
        @Bindable(defaultValue = "true") boolean enabled,
        @Nullable String leaseName,
        @Nullable String namespace,
        @Nullable String identity,
        @Bindable(defaultValue = "15s") Duration leaseDuration,
        @Bindable(defaultValue = "10s") Duration renewDeadline,
        @Bindable(defaultValue = "2s") Duration retryPeriod) {

    private static final Duration LEASE_DURATION = Duration.ofSeconds(15);
    private static final Duration RENEW_DEADLINE = Duration.ofSeconds(10);
    private static final Duration RETRY_PERIOD = Duration.ofSeconds(2);

    /** An election for {@code leaseName} with the default timings (15 s / 10 s / 2 s). */
    public static LeaseSettings elect(String leaseName) {
        return new LeaseSettings(true, leaseName, null, null, LEASE_DURATION, RENEW_DEADLINE, RETRY_PERIOD);
    }

    /** No election: what one replica, a test or a replica without Kubernetes runs with. */
    public static LeaseSettings disabled(String leaseName) {
        return elect(leaseName).withoutElection();
    }

    /** The same Lease with the election off. */
    public LeaseSettings withoutElection() {
        return new LeaseSettings(false, leaseName, namespace, identity, leaseDuration, renewDeadline, retryPeriod);
    }

    /** Throws when the durations cannot give one leader at a time (a leader must step down before others take over). */
    static void check(LeaseSettings settings) {
        if (!settings.enabled()) {
            return;
        }
        if (settings.leaseName() == null || settings.leaseName().isBlank()) {
            throw new IllegalArgumentException("a Lease needs a name (gpuaas.leader-election.lease-name)");
        }
        if (settings.retryPeriod().isNegative()
                || settings.retryPeriod().isZero()
                || settings.retryPeriod().compareTo(settings.renewDeadline()) >= 0
                || settings.renewDeadline().compareTo(settings.leaseDuration()) >= 0) {
            throw new IllegalArgumentException("Lease " + settings.leaseName()
                    + ": need 0 < retry-period < renew-deadline < lease-duration, got " + settings.retryPeriod()
                    + " / " + settings.renewDeadline() + " / " + settings.leaseDuration());
        }
    }
}
