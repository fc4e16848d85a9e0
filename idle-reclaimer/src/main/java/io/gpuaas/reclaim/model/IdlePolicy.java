package io.gpuaas.reclaim.model;

import java.time.Duration;

/**
 * When one workload counts as idle. Resolved per workload from the service defaults, the namespace's annotations
 * and the workload's own annotations (see {@link PolicyResolver}).
 *
 * @param threshold      utilization ratio (0..1) at or under which a sample is idle
 * @param window         how long every device must stay at or under the threshold
 * @param sampleInterval the expected spacing of samples: the window holds {@code window / sampleInterval} slots
 * @param minCoverage    fraction of the window's slots that must hold a sample (0.9: at least 90%)
 * @param warmUp         grace after a pod starts or the workload resumes; samples in it never count as idle
 * @param reclaimEnabled false when the workload or namespace opted out with {@code gpuaas.io/reclaim: "false"}
 */
public record IdlePolicy(
        double threshold,
        Duration window,
        Duration sampleInterval,
        double minCoverage,
        Duration warmUp,
        boolean reclaimEnabled) {

    public static final double DEFAULT_THRESHOLD = 0.05;
    public static final Duration DEFAULT_WINDOW = Duration.ofMinutes(15);
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(1);
    public static final double DEFAULT_COVERAGE = 0.9;
    public static final Duration DEFAULT_WARM_UP = Duration.ofMinutes(10);

    public IdlePolicy {
        if (threshold < 0 || threshold > 1) {
            throw new IllegalArgumentException("threshold must be a ratio in [0,1], got " + threshold);
        }
        if (sampleInterval.isNegative() || sampleInterval.isZero()) {
            throw new IllegalArgumentException("sampleInterval must be positive, got " + sampleInterval);
        }
        if (window.compareTo(sampleInterval) < 0) {
            throw new IllegalArgumentException(
                    "window " + window + " is shorter than the sample interval " + sampleInterval);
        }
        if (minCoverage <= 0 || minCoverage > 1) {
            throw new IllegalArgumentException("minCoverage must be in (0,1], got " + minCoverage);
        }
        if (warmUp.isNegative()) {
            throw new IllegalArgumentException("warmUp must not be negative, got " + warmUp);
        }
    }

    /** The documented defaults: 0.05, 15 min, 1 s samples, 90% coverage, 10 min warm-up. */
    public static IdlePolicy defaults() {
        return new IdlePolicy(
                DEFAULT_THRESHOLD, DEFAULT_WINDOW, DEFAULT_INTERVAL, DEFAULT_COVERAGE, DEFAULT_WARM_UP, true);
    }

    /** Number of sample slots in one window. */
    public int slots() {
        return (int) Math.max(1, window.toMillis() / sampleInterval.toMillis());
    }

    /** Slots that must hold a sample for the window to count. */
    public int requiredSamples() {
        return (int) Math.ceil(minCoverage * slots() - 1e-9);
    }

    /** Share of the window after which a workload idle so far is sent a ReclaimPending notice. */
    public static final double PENDING_SHARE = 0.8;

    /** Slots of the part of the window that must have passed idle before the ReclaimPending notice. */
    public int pendingSlots() {
        return (int) Math.max(1, Math.ceil(PENDING_SHARE * slots() - 1e-9));
    }

    /** Samples the pending part must hold: the same coverage as the whole window. */
    public int pendingRequiredSamples() {
        return (int) Math.ceil(minCoverage * pendingSlots() - 1e-9);
    }

    public IdlePolicy withThreshold(double value) {
        return new IdlePolicy(value, window, sampleInterval, minCoverage, warmUp, reclaimEnabled);
    }

    public IdlePolicy withWindow(Duration value) {
        return new IdlePolicy(threshold, value, sampleInterval, minCoverage, warmUp, reclaimEnabled);
    }

    public IdlePolicy withWarmUp(Duration value) {
        return new IdlePolicy(threshold, window, sampleInterval, minCoverage, value, reclaimEnabled);
    }

    public IdlePolicy withReclaimEnabled(boolean value) {
        return new IdlePolicy(threshold, window, sampleInterval, minCoverage, warmUp, value);
    }
}
