package io.gpuaas.reclaim.model;

import io.gpuaas.events.gpu.GpuActivity;
import java.time.Duration;

/**
 * When one workload counts as idle. Resolved per workload from the service defaults, the namespace's annotations
 * and the workload's own annotations (see {@link PolicyResolver}).
 *
 * @param threshold      utilization ratio (0..1) at or under which a sample is idle (with its video decoder and
 *                       encoder unused: events' {@code GpuActivity})
 * @param window         how long every device must stay at or under the threshold
 * @param sampleInterval the expected spacing of samples: the window holds {@code window / sampleInterval} slots
 * @param minCoverage    fraction of the window's slots that must hold a sample (0.9: at least 90%)
 * @param warmUp         grace after a pod starts or the workload resumes; samples in it never count as idle
 * @param reclaimEnabled false when the workload or namespace opted out with {@code gpuaas.io/reclaim: "false"}
 * @param gpuUtilMinWindow the shortest window a device judged by {@code GPU_UTIL} alone (no engine-activity field)
 *                       is judged over: NVML's GPU_UTIL can read 0 for tens of seconds while short bursts run
 */
public record IdlePolicy(
        double threshold,
        Duration window,
        Duration sampleInterval,
        double minCoverage,
        Duration warmUp,
        boolean reclaimEnabled,
        Duration gpuUtilMinWindow) {

    public static final double DEFAULT_THRESHOLD = GpuActivity.DEFAULT_IDLE_THRESHOLD;
    public static final Duration DEFAULT_WINDOW = Duration.ofMinutes(15);
    /** One GpuScrape per node per metrics-gateway scrape, every 5 s by default. */
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(5);
    /**
     * 5 min: NVML's GPU_UTIL read 0 for 24 s in a row on an H200 while a job ran bf16 bursts 10 % of every second;
     * the floor is more than ten such gaps.
     */
    public static final Duration DEFAULT_GPU_UTIL_MIN_WINDOW = Duration.ofMinutes(5);

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
        if (gpuUtilMinWindow.isNegative()) {
            throw new IllegalArgumentException("gpuUtilMinWindow must not be negative, got " + gpuUtilMinWindow);
        }
    }

    /** A policy with the default GPU_UTIL floor ({@link #DEFAULT_GPU_UTIL_MIN_WINDOW}). */
    public IdlePolicy(
            double threshold,
            Duration window,
            Duration sampleInterval,
            double minCoverage,
            Duration warmUp,
            boolean reclaimEnabled) {
        this(threshold, window, sampleInterval, minCoverage, warmUp, reclaimEnabled, DEFAULT_GPU_UTIL_MIN_WINDOW);
    }

    /** The documented defaults: 0.01, 15 min, 5 s samples, 90% coverage, 10 min warm-up, GPU_UTIL floor 5 min. */
    public static IdlePolicy defaults() {
        return new IdlePolicy(
                DEFAULT_THRESHOLD, DEFAULT_WINDOW, DEFAULT_INTERVAL, DEFAULT_COVERAGE, DEFAULT_WARM_UP, true);
    }

    /** Number of sample slots in one window. */
    public int slots() {
        return (int) Math.max(1, window.toMillis() / sampleInterval.toMillis());
    }

    /**
     * Slots of the window a device is judged over: the policy's, or for a device judged by GPU_UTIL alone at least
     * {@link #gpuUtilMinWindow()}'s, so a run of zeros NVML reports between short bursts cannot fill a short window.
     */
    public int slotsFor(boolean gpuUtilOnly) {
        int floor = (int) (gpuUtilMinWindow.toMillis() / sampleInterval.toMillis());
        return gpuUtilOnly ? Math.max(slots(), floor) : slots();
    }

    /** Slots that must hold a sample for the window to count. */
    public int requiredSamples() {
        return requiredSamples(slots());
    }

    /** Slots that must hold a sample for a window of {@code windowSlots} to count. */
    public int requiredSamples(int windowSlots) {
        return (int) Math.ceil(minCoverage * windowSlots - 1e-9);
    }

    /** Share of the window after which a workload idle so far is sent a ReclaimPending notice. */
    public static final double PENDING_SHARE = 0.8;

    /** Slots of the part of the window that must have passed idle before the ReclaimPending notice. */
    public int pendingSlots() {
        return pendingSlots(slots());
    }

    /** The pending part of a device's window of {@code windowSlots}. */
    public int pendingSlots(int windowSlots) {
        return (int) Math.max(1, Math.ceil(PENDING_SHARE * windowSlots - 1e-9));
    }

    /** Samples the pending part must hold: the same coverage as the whole window. */
    public int pendingRequiredSamples() {
        return requiredSamples(pendingSlots());
    }

    public IdlePolicy withThreshold(double value) {
        return new IdlePolicy(value, window, sampleInterval, minCoverage, warmUp, reclaimEnabled, gpuUtilMinWindow);
    }

    public IdlePolicy withWindow(Duration value) {
        return new IdlePolicy(threshold, value, sampleInterval, minCoverage, warmUp, reclaimEnabled, gpuUtilMinWindow);
    }

    public IdlePolicy withWarmUp(Duration value) {
        return new IdlePolicy(threshold, window, sampleInterval, minCoverage, value, reclaimEnabled, gpuUtilMinWindow);
    }

    public IdlePolicy withReclaimEnabled(boolean value) {
        return new IdlePolicy(threshold, window, sampleInterval, minCoverage, warmUp, value, gpuUtilMinWindow);
    }
}
