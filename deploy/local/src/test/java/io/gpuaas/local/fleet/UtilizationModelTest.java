package io.gpuaas.local.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class UtilizationModelTest {

    private static final Instant START = Instant.parse("2026-11-22T12:00:00Z");
    private final UtilizationModel model = new UtilizationModel(Duration.ofMinutes(4), Duration.ofMinutes(5));
    private final Attribution ray =
            new Attribution("w-1", "team-a", "ray-worker", "u", "team-a/RayCluster/demo", START, Optional.empty());

    @Test
    void shouldAlternateBusyAndIdlePhasesOfMinutesWhenAWorkloadRuns() {
        int busy = 0;
        int flips = 0;
        boolean previous = model.busy(ray.workload(), START, START);
        for (int minute = 0; minute < 120; minute++) {
            boolean now = model.busy(ray.workload(), START, START.plus(Duration.ofMinutes(minute)));
            busy += now ? 1 : 0;
            flips += now != previous ? 1 : 0;
            previous = now;
        }
        // Means of 4 and 5 minutes: about 44% busy and a flip every 4.5 minutes over two hours.
        assertThat(busy).isBetween(35, 75);
        assertThat(flips).isBetween(16, 36);
        assertThat(model.busy(ray.workload(), START, START))
                .as("a new workload starts busy")
                .isTrue();
        Instant restarted = START.plus(Duration.ofMinutes(200));
        assertThat(model.busy(ray.workload(), restarted, restarted.plusSeconds(60)))
                .as("a resumed one too")
                .isTrue();
    }

    @Test
    void shouldStayInTheBusyAndIdleBandsWhenSampledEverySecond() {
        for (int second = 0; second < 3600; second += 7) {
            Instant at = START.plusSeconds(second);
            double utilization = model.utilization(ray, "gpu-node-1/GPU-1", at);
            if (model.busy(ray.workload(), START, at)) {
                assertThat(utilization).isBetween(0.6, 0.95);
            } else {
                // An idle H200's engine activity: under the reclaimer's 0.01 threshold with room to spare.
                assertThat(utilization).isBetween(0.0001, 0.0004);
            }
        }
    }

    @Test
    void shouldDecodeVideoWithTheEngineAllButIdleWhenTheOwnerIsVideoShaped() {
        Attribution video = new Attribution(
                "w-1",
                "team-a",
                "ray-worker",
                "u",
                "team-a/RayCluster/demo",
                START,
                Attribution.parseForced("video"),
                Attribution.isVideo("video"));

        for (int second = 0; second < 600; second += 5) {
            Instant at = START.plusSeconds(second);
            assertThat(model.utilization(video, "d", at)).isEqualTo(0.0002);
            assertThat(model.decoderPercent(video, "d", at)).isBetween(40.0, 52.0);
        }
        assertThat(model.decoderPercent(ray, "d", START)).isZero();
    }

    @Test
    void shouldFollowTheAnnotationWhenTheOwnerPinsTheUtilization() {
        Attribution idle = new Attribution(
                "w-1", "team-a", "ray-worker", "u", "team-a/RayCluster/demo", START, Attribution.parseForced("idle"));
        Attribution ratio = new Attribution(
                "w-1", "team-a", "ray-worker", "u", "team-a/RayCluster/demo", START, Attribution.parseForced("0.3"));

        assertThat(model.utilization(idle, "d", START)).isZero();
        assertThat(model.utilization(ratio, "d", START)).isEqualTo(0.3);
        assertThat(Attribution.parseForced("lots")).isEmpty();
        assertThat(model.decoderPercent(ratio, "d", START))
                .as("not video-shaped")
                .isZero();
        assertThat(Attribution.parseForced("1.5")).isEmpty();
    }
}
