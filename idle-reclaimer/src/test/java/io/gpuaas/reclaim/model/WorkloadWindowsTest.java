package io.gpuaas.reclaim.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.reclaim.WorkloadRef;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class WorkloadWindowsTest {

    private static final WorkloadRef RAY = new WorkloadRef("team-a", Owner.RAY_CLUSTER, "train");
    private static final IdlePolicy POLICY =
            new IdlePolicy(0.05, Duration.ofSeconds(10), Duration.ofSeconds(1), 0.9, Duration.ZERO, true);

    private final WorkloadWindows state = new WorkloadWindows();

    private void feed(String device, long from, long to, Double utilization) {
        for (long s = from; s <= to; s++) {
            state.accept(
                    new AttributedSample(RAY, device, "train-worker-" + device, "gpu", s * 1_000, utilization, 0),
                    POLICY);
        }
    }

    @Test
    void shouldBeIdleOnlyWhenEveryDeviceOfTheWorkloadIsIdle() {
        feed("node1/GPU-a", 0, 9, 0.0);
        feed("node1/GPU-b", 0, 9, 0.0);
        feed("node2/GPU-c", 0, 4, 0.0);
        feed("node2/GPU-c", 5, 5, 0.6);
        feed("node2/GPU-c", 6, 9, 0.0);

        WorkloadVerdict verdict = state.evaluate(9_000, POLICY, 0);

        assertThat(verdict.idle()).isFalse();
        assertThat(verdict.devices()).isEqualTo(3);
        assertThat(verdict.reason()).isEqualTo(DeviceVerdict.Reason.BUSY);
    }

    @Test
    void shouldCountMigSlicesOfOneGpuAsSeparateDevices() {
        feed("node1/GPU-a/1", 0, 9, 0.0);
        feed("node1/GPU-a/2", 0, 9, 0.02);

        WorkloadVerdict verdict = state.evaluate(9_000, POLICY, 0);

        assertThat(verdict.idle()).isTrue();
        assertThat(verdict.devices()).isEqualTo(2);
        assertThat(verdict.maxUtilization()).isEqualTo(0.02);
    }

    @Test
    void shouldNotBeIdleWhenOneDeviceStoppedReporting() {
        feed("node1/GPU-a", 0, 20, 0.0);
        feed("node1/GPU-b", 0, 9, 0.0);

        assertThat(state.evaluate(20_000, POLICY, 0).reason()).isEqualTo(DeviceVerdict.Reason.LOW_COVERAGE);
    }

    @Test
    void shouldBeIdleAgainWhenTheSilentDevicesPodIsGone() {
        feed("node1/GPU-a", 0, 20, 0.0);
        feed("node1/GPU-b", 0, 9, 0.0);

        state.retainDevices((device, d) -> device.equals("node1/GPU-a"));

        assertThat(state.evaluate(20_000, POLICY, 0).idle()).isTrue();
    }

    private void feed(String device, String pod, long podStart, long from, long to, Double utilization) {
        for (long s = from; s <= to; s++) {
            state.accept(new AttributedSample(RAY, device, pod, "gpu", s * 1_000, utilization, podStart), POLICY);
        }
    }

    /**
     * A flexible pool's GPU re-laid out between two bookings (gpuaas re-lays out a GPU only once no pod holds its
     * instances): the old instances' keys stop, one GPU instance id comes back as an instance of another profile for
     * a new pod. The vanished keys go with their pod, so they are no gap; the reused key's earlier samples count
     * only after the new pod's warm-up, so they are no stale idleness either.
     */
    @Test
    void shouldJudgeAReLaidOutGpuByItsNewInstancesOnceTheOldInstancesPodIsGone() {
        IdlePolicy policy = POLICY.withWarmUp(Duration.ofSeconds(5));
        // before: two 3g.71gb instances (GPU instance ids 1 and 2) of pod w-1, idle
        feed("node1/GPU-a/1", "w-1", 0, 0, 20, 0.0);
        feed("node1/GPU-a/2", "w-1", 0, 0, 20, 0.0);
        // after w-1 left and the GPU was laid out 1g.18gb × 7: ids 1 (reused) and 3 hold the new pods w-2 and w-3
        feed("node1/GPU-a/1", "w-2", 21_000, 21, 31, 0.0);
        feed("node1/GPU-a/3", "w-3", 21_000, 21, 31, 0.0);
        state.retainDevices((device, d) -> !d.pod().equals("w-1"));

        assertThat(state.devices()).containsOnlyKeys("node1/GPU-a/1", "node1/GPU-a/3");
        assertThat(state.evaluate(31_000, POLICY, 0).idle())
                .as("without a warm-up, the vanished id 2 is no gap")
                .isTrue();
        assertThat(state.evaluate(31_000, policy, 0).reason())
                .as("the reused id is judged from its new pod's start and warm-up, not w-1's")
                .isEqualTo(DeviceVerdict.Reason.WARM_UP);
        feed("node1/GPU-a/1", "w-2", 21_000, 32, 40, 0.0);
        feed("node1/GPU-a/3", "w-3", 21_000, 32, 40, 0.0);
        WorkloadVerdict verdict = state.evaluate(40_000, policy, 0);
        assertThat(verdict.idle()).isTrue();
        assertThat(verdict.devices()).isEqualTo(2);
    }

    @Test
    void shouldNeverBeIdleWithoutDevices() {
        assertThat(state.evaluate(1_000, POLICY, 0).idle()).isFalse();
    }

    @Test
    void shouldWaitForTheWarmUpAfterAResume() {
        feed("node1/GPU-a", 0, 30, 0.0);

        assertThat(state.evaluate(30_000, POLICY.withWarmUp(Duration.ofSeconds(5)), 20_000)
                        .reason())
                .isEqualTo(DeviceVerdict.Reason.WARM_UP);
        assertThat(state.evaluate(30_000, POLICY.withWarmUp(Duration.ofSeconds(5)), 10_000)
                        .idle())
                .isTrue();
    }

    @Test
    void shouldReturnToActiveWhenABusySampleArrivesAfterReclaim() {
        feed("node1/GPU-a", 0, 9, 0.0);
        state.markReclaimed("action-1", 9_000);

        feed("node1/GPU-a", 10, 10, 0.8);

        assertThat(state.phase()).isEqualTo(WorkloadWindows.Phase.ACTIVE);
        assertThat(state.actionId()).isNull();
    }

    @Test
    void shouldStayReclaimedOnIdleSamples() {
        feed("node1/GPU-a", 0, 9, 0.0);
        state.markReclaimed("action-1", 9_000);

        feed("node1/GPU-a", 10, 12, 0.0);

        assertThat(state.phase()).isEqualTo(WorkloadWindows.Phase.RECLAIMED);
    }

    @Test
    void shouldStartTheDeviceOverWhenThePolicyWindowChanges() {
        feed("node1/GPU-a", 0, 9, 0.0);
        IdlePolicy longer = POLICY.withWindow(Duration.ofSeconds(20));

        state.accept(
                new AttributedSample(RAY, "node1/GPU-a", "train-worker-node1/GPU-a", "gpu", 10_000, 0.0, 0), longer);

        assertThat(state.evaluate(10_000, longer, 0).idle()).isFalse();
    }

    @Test
    void shouldSurviveAnEncodeDecodeRoundTrip() {
        feed("node1/GPU-a", 0, 8, 0.0);
        feed("node1/GPU-b/3", 0, 8, 0.01);
        state.markReported(8_000, WorkloadWindows.NEVER);

        WorkloadWindows restored = WorkloadWindowsCodec.decode(WorkloadWindowsCodec.encode(state));
        restored.accept(
                new AttributedSample(RAY, "node1/GPU-a", "train-worker-node1/GPU-a", "gpu", 9_000, 0.0, 0), POLICY);
        restored.accept(
                new AttributedSample(RAY, "node1/GPU-b/3", "train-worker-node1/GPU-b/3", "gpu", 9_000, 0.0, 0), POLICY);

        assertThat(restored.phase()).isEqualTo(WorkloadWindows.Phase.REPORTED);
        assertThat(restored.evaluate(9_000, POLICY, 0).idle()).isTrue();
        assertThat(restored.devices()).containsOnlyKeys("node1/GPU-a", "node1/GPU-b/3");
    }

    @Test
    void shouldWriteTheSameBytesWhetherOrNotDevicesWereWrittenBefore() {
        WorkloadWindows written = new WorkloadWindows();
        java.util.Random random = new java.util.Random(3);
        for (int i = 0; i < 400; i++) {
            String device = "node1/GPU-" + random.nextInt(4);
            AttributedSample sample = new AttributedSample(
                    RAY,
                    device,
                    "train-worker-" + device,
                    "gpu",
                    (i / 4) * 1_000L + random.nextInt(3) * 1_000L,
                    random.nextInt(10) == 0 ? 0.7 : 0.0,
                    0);
            state.accept(sample, POLICY);
            written.accept(sample, POLICY);
            if (i % 7 == 0) {
                state.evaluate((i / 4) * 1_000L + 4_000, POLICY, 0);
                written.evaluate((i / 4) * 1_000L + 4_000, POLICY, 0);
            }
            WorkloadWindowsCodec.encode(written);
        }

        assertThat(WorkloadWindowsCodec.encode(written)).isEqualTo(WorkloadWindowsCodec.encode(state));
    }

    @Test
    void shouldBeginThePendingWindowOnlyWhenEveryDeviceWasIdleForEightyPercentOfTheWindow() {
        feed("node1/GPU-a", 0, 0, 0.9);
        feed("node1/GPU-a", 1, 8, 0.0);
        feed("node1/GPU-b", 1, 8, 0.0);

        assertThat(state.pendingSince(7_000, POLICY, 0)).as("7 of 10 slots").isEqualTo(IdlenessWindow.EMPTY);
        assertThat(state.pendingSince(8_000, POLICY, 0)).isEqualTo(1_000);
    }

    @Test
    void shouldNotBeginThePendingWindowOnDoubt() {
        feed("node1/GPU-a", 0, 8, 0.0);
        feed("node1/GPU-b", 0, 3, 0.0);
        feed("node1/GPU-b", 4, 4, null);
        feed("node1/GPU-b", 5, 8, 0.0);
        feed("node2/GPU-c", 0, 8, 0.0);

        assertThat(state.pendingSince(8_000, POLICY, 0))
                .as("a valueless sample")
                .isEqualTo(IdlenessWindow.EMPTY);
        state.retainDevices((device, d) -> !device.equals("node1/GPU-b"));
        assertThat(state.pendingSince(8_000, POLICY, 0)).isEqualTo(1_000);
        assertThat(state.pendingSince(8_000, POLICY.withWarmUp(Duration.ofSeconds(2)), 0))
                .as("the pending part reaches into the warm-up")
                .isEqualTo(IdlenessWindow.EMPTY);
    }

    @Test
    void shouldForgetTheNoticeWhenADeviceTurnsBusySoTheNextRunIsAnnouncedAgain() {
        feed("node1/GPU-a", 0, 8, 0.0);
        state.markNoticed(state.pendingSince(8_000, POLICY, 0));
        feed("node1/GPU-a", 9, 9, 0.01);
        assertThat(state.noticed()).isTrue();

        feed("node1/GPU-a", 10, 10, 0.5);

        assertThat(state.noticed()).isFalse();
    }
}
