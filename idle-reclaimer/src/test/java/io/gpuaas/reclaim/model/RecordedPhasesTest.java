package io.gpuaas.reclaim.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.reclaim.WorkloadRef;
import java.time.Duration;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * The idle decision on the levels a real H200 read through known phases (NVML and GPM, the counters behind
 * dcgm-exporter's fields), with the shipped defaults: threshold 0.01, 15 min window, one sample every 5 s. Each phase
 * is fed at its reading level, not copied from a trace:
 *
 * <ul>
 *   <li>empty GPU, and a process holding 40 GiB that runs nothing: engine activity 0.0001–0.0004;
 *   <li>a live process launching a steady stream of small kernels: 0.043–0.046;
 *   <li>bf16 matrix products 10 % of each second: 0.13 on average, each reading higher or lower with the bursts;
 *   <li>video decode only: engine activity about 0.0002 while {@code DCGM_FI_DEV_DEC_UTIL} reads 46 %;
 *   <li>GPU_UTIL only (3.x exporters without profiling fields): NVML's GPU_UTIL read 0 for 24 s in a row while
 *       1 Hz bursts ran.
 * </ul>
 */
class RecordedPhasesTest {

    private static final WorkloadRef RAY = new WorkloadRef("team-a", Owner.RAY_CLUSTER, "phases");
    private static final IdlePolicy DEFAULTS = IdlePolicy.defaults().withWarmUp(Duration.ZERO);
    private static final long STEP = DEFAULTS.sampleInterval().toMillis();
    private static final long MINUTE = 60_000;

    /** One sample's reading: engine (or GPU_UTIL) ratio, decoder at work, read by GPU_UTIL alone. */
    private record Reading(double utilization, boolean mediaBusy, boolean gpuUtilOnly) {}

    private interface Phase {
        Reading at(int sample);
    }

    private static Phase engine(double... levels) {
        return i -> new Reading(levels[i % levels.length], false, false);
    }

    /**
     * Feeds {@code phase} one sample per interval for {@code minutes} and returns when the workload was first judged
     * idle (ms from the start), if ever.
     */
    private static OptionalLong firstIdle(Phase phase, IdlePolicy policy, int minutes) {
        WorkloadWindows state = new WorkloadWindows();
        for (int i = 0; i * STEP <= minutes * MINUTE; i++) {
            Reading r = phase.at(i);
            long t = i * STEP;
            state.accept(
                    new AttributedSample(
                            RAY,
                            "n1/GPU-0",
                            "phases-worker-0",
                            "gpu",
                            t,
                            r.utilization(),
                            0,
                            r.mediaBusy(),
                            r.gpuUtilOnly()),
                    policy);
            if (state.evaluate(t, policy, 0).idle()) {
                return OptionalLong.of(t);
            }
        }
        return OptionalLong.empty();
    }

    @Test
    void shouldReclaimAnEmptyGpuAndOneWhoseProcessOnlyHoldsMemoryWhenTheWindowPasses() {
        OptionalLong empty = firstIdle(engine(0.0001, 0.0002, 0.0004, 0.0003), DEFAULTS, 20);
        OptionalLong holdingMemory = firstIdle(engine(0.0004, 0.0002, 0.0001), DEFAULTS, 20);

        // The 15 min window ends in the slot of the sample at 14:55 (180 slots of 5 s, all held).
        assertThat(empty).hasValue(15 * MINUTE - STEP);
        assertThat(holdingMemory).hasValue(15 * MINUTE - STEP);
    }

    @Test
    void shouldKeepALiveProcessLaunchingSmallKernelsWhenItReadsUnderTheFormerThreshold() {
        Phase smallKernels = engine(0.043, 0.046, 0.044, 0.045);

        assertThat(firstIdle(smallKernels, DEFAULTS, 30)).isEmpty();
        // What the former default (0.05) did with it: reclaimed the live process.
        assertThat(firstIdle(smallKernels, DEFAULTS.withThreshold(0.05), 30)).isPresent();
    }

    @Test
    void shouldKeepATenPercentDutyJobWhenItsReadingsRiseAndFallWithTheBursts() {
        Phase duty = engine(0.21, 0.05, 0.13, 0.18, 0.08);

        assertThat(firstIdle(duty, DEFAULTS, 30)).isEmpty();
    }

    @Test
    void shouldKeepAGpuThatOnlyDecodesVideoWhenItsEngineActivityIsNearZero() {
        Phase decodeOnly = i -> new Reading(0.0002, true, false);

        assertThat(firstIdle(decodeOnly, DEFAULTS, 30)).isEmpty();
    }

    /** GPU_UTIL read 0 for 24 s (five samples of 5 s), then caught one burst, and so on while the job ran. */
    private static final Phase GPU_UTIL_GAPS = i -> new Reading(i % 6 == 5 ? 0.1 : 0.0, false, true);

    @Test
    void shouldNotReclaimAGpuUtilOnlyDeviceWhenItsZerosHideBurstsLongerThanAShortWindow() {
        IdlePolicy shortWindow = DEFAULTS.withWindow(Duration.ofSeconds(20));

        assertThat(firstIdle(GPU_UTIL_GAPS, shortWindow, 30)).isEmpty();
        // The same readings from engine activity fill the 20 s window (four slots, 0:00 to 0:15) before the first
        // burst: the floor is the guard.
        Phase asEngine = i -> new Reading(GPU_UTIL_GAPS.at(i).utilization(), false, false);
        assertThat(firstIdle(asEngine, shortWindow, 30)).hasValue(15_000);
    }

    @Test
    void shouldReclaimATrulyIdleGpuUtilOnlyDeviceOnceItsWindowReachesTheFloor() {
        IdlePolicy shortWindow = DEFAULTS.withWindow(Duration.ofSeconds(20));
        Phase idle = i -> new Reading(0.0, false, true);

        // 5 min floor: 60 slots of 5 s, the first full one ending with the sample at 4:55.
        assertThat(firstIdle(idle, shortWindow, 20)).hasValue(5 * MINUTE - STEP);
        assertThat(firstIdle(idle, DEFAULTS, 20))
                .as("a window past the floor is unchanged")
                .hasValue(15 * MINUTE - STEP);
    }
}
