package io.gpuaas.kit.k8s;

import java.time.Duration;

/**
 * The coordination.k8s.io Lease a {@link LeaseLeadership} campaigns for. Each service binds its own
 * {@code @ConfigurationProperties} record under its own prefix (e.g. {@code gpuaas.quota.leader-election}) and lets it
 * implement this interface, so the keys stay where the rest of the service's configuration is.
 */
public interface LeaseSettings {

    /** False: no election, this replica performs the duties as soon as it is ready (one replica, or tests). */
    boolean enabled();

    /** Name of the Lease; replicas of one service share it. */
    String leaseName();

    /** Namespace of the Lease; the client's namespace (the pod's, in a cluster) when null or blank. */
    String namespace();

    /** Holder identity; {@code $HOSTNAME-<random>} when null or blank. */
    String identity();

    /** How long an unrenewed Lease stays valid: the longest a crashed leader blocks a takeover. */
    Duration leaseDuration();

    /** How long the leader keeps trying to renew before it steps down; shorter than the lease duration. */
    Duration renewDeadline();

    /** How often a candidate tries to acquire, and the leader to renew; shorter than the renew deadline. */
    Duration retryPeriod();

    /** Throws when the durations cannot give one leader at a time (a leader must step down before others take over). */
    static void check(LeaseSettings settings) {
        if (!settings.enabled()) {
            return;
        }
        if (settings.leaseName() == null || settings.leaseName().isBlank()) {
            throw new IllegalArgumentException("a Lease needs a name");
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
