package io.gpuaas.local.fleet;

import java.time.Duration;
import java.time.Instant;
import java.util.SplittableRandom;

/**
 * Busy and idle phases per workload, the way the production duty-cycle traces look: stretches of 0.6–0.95 engine
 * activity alternate with stretches of 0.0001–0.0004 (what a real H200 reads with nothing running, or with a process
 * that only holds memory), starting busy when the pod starts. Phase lengths are jittered ±25%
 * around the configured means, differently per workload, so a fleet of workloads does not flip in lock-step. The
 * schedule is a pure function of (workload, start, time), so every scrape agrees.
 */
public final class UtilizationModel {

    private final Duration busy;
    private final Duration idle;

    public UtilizationModel(Duration busy, Duration idle) {
        if (busy.isNegative() || busy.isZero() || idle.isNegative() || idle.isZero()) {
            throw new IllegalArgumentException("busy and idle phases must be positive");
        }
        this.busy = busy;
        this.idle = idle;
    }

    /** Whether {@code workload}, started at {@code since}, is in a busy phase at {@code now}. */
    public boolean busy(String workload, Instant since, Instant now) {
        long seed = workload.hashCode();
        long elapsed = Math.max(0, Duration.between(since, now).toMillis());
        for (int cycle = 0; ; cycle++) {
            SplittableRandom random = new SplittableRandom(seed * 31 + cycle);
            long busyMs = jitter(busy, random);
            long idleMs = jitter(idle, random);
            if (elapsed < busyMs) {
                return true;
            }
            if (elapsed < busyMs + idleMs) {
                return false;
            }
            elapsed -= busyMs + idleMs;
        }
    }

    /** Engine activity ratio of one device of {@code workload}: the forced value, else the phase's level plus noise. */
    public double utilization(Attribution attribution, String deviceKey, Instant now) {
        if (attribution.forced().isPresent()) {
            return attribution.forced().get();
        }
        SplittableRandom sample = new SplittableRandom((deviceKey.hashCode() * 31L) ^ (now.getEpochSecond() / 5));
        if (busy(attribution.workload(), attribution.since(), now)) {
            return 0.6 + 0.35 * sample.nextDouble();
        }
        return 0.0001 + 0.0003 * sample.nextDouble();
    }

    /**
     * Video decoder utilization in percent of one device: 40–52 % for a video-shaped workload (a real RTX read 46 %),
     * 0 for every other one, as an unused NVDEC reads.
     */
    public double decoderPercent(Attribution attribution, String deviceKey, Instant now) {
        if (!attribution.video()) {
            return 0;
        }
        SplittableRandom sample = new SplittableRandom((deviceKey.hashCode() * 17L) ^ (now.getEpochSecond() / 5));
        return 40 + 12 * sample.nextDouble();
    }

    private static long jitter(Duration mean, SplittableRandom random) {
        return Math.max(1, (long) (mean.toMillis() * (0.75 + 0.5 * random.nextDouble())));
    }
}
