package io.gpuaas.metrics.projection;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.events.reclaim.WorkloadRef;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReclaimStateTest {

    private static final Instant T0 = Instant.parse("2026-11-22T12:00:00Z");
    private static final WorkloadRef RAY = new WorkloadRef("team-a", "RayCluster", "train");
    private final ReclaimState state = new ReclaimState();

    @Test
    void shouldCountWorkersAndAccrueSavedGpuSecondsWhileAReclaimedWorkloadStaysAtZero() {
        state.apply(new ReclaimEvent.IdleDetected(
                RAY, "team-a", 4, T0.minusSeconds(900), 900, 0.05, 0.0, 1.0, "direct", T0));
        state.apply(reclaimed(T0, false));

        assertThat(state.workload(RAY))
                .hasValueSatisfying(i -> assertThat(i.idle()).isTrue());
        assertThat(state.reclaimedWorkers()).isEqualTo(3);
        assertThat(state.gpuSecondsSaved(T0.plusSeconds(100))).isEqualTo(400.0);

        state.apply(new ReclaimEvent.Resumed(RAY, "team-a", List.of(), "alice", T0.plusSeconds(150)));

        assertThat(state.workload(RAY))
                .hasValueSatisfying(i -> assertThat(i.idle()).isFalse());
        assertThat(state.gpuSecondsSaved(T0.plusSeconds(10_000))).isEqualTo(600.0);
    }

    @Test
    void shouldCountNothingWhenTheReclaimWasADryRun() {
        state.apply(reclaimed(T0, true));

        assertThat(state.reclaimedWorkers()).isZero();
        assertThat(state.gpuSecondsSaved(T0.plusSeconds(100))).isZero();
    }

    @Test
    void shouldClearTheIdleSignalWhenTheReclaimerDecidesToLeaveTheWorkloadRunning() {
        state.apply(new ReclaimEvent.IdleDetected(RAY, "team-a", 4, T0, 900, 0.05, 0.0, 1.0, "keda", T0));
        state.apply(new ReclaimEvent.ReclaimSkipped(RAY, "team-a", "OPTED_OUT", "annotation", T0.plusSeconds(1)));

        assertThat(state.workloads()).containsOnlyKeys(RAY);
        assertThat(state.workload(RAY))
                .hasValueSatisfying(i -> assertThat(i.idle()).isFalse());
    }

    private static ReclaimEvent.Reclaimed reclaimed(Instant at, boolean dryRun) {
        return new ReclaimEvent.Reclaimed(
                RAY,
                "team-a",
                List.of(new ReclaimEvent.ScaledGroup("gpu-workers", 3, 1, 0)),
                4,
                900,
                "RayCluster worker groups to 0",
                dryRun,
                at);
    }
}
