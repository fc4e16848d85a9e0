package io.gpuaas.booking.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.events.reclaim.ReclaimEvent.Reclaimed;
import io.gpuaas.events.reclaim.ReclaimEvent.Resumed;
import io.gpuaas.events.reclaim.ReclaimEvent.ScaledGroup;
import io.gpuaas.events.reclaim.WorkloadRef;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class WorkloadActivityTest {

    private static final Instant T = Instant.parse("2026-11-25T10:00:00Z");

    private final WorkloadActivity activity = new WorkloadActivity();

    @Test
    void shouldReturnOnlyTheNamespacesLatestStepPerWorkloadWhenManyNamespacesHaveSome() {
        WorkloadRef a = new WorkloadRef("team-a", "RayCluster", "ray-1");
        WorkloadRef b = new WorkloadRef("team-b", "RayCluster", "ray-1");
        activity.applyReclaim(a.key(), reclaimed(a));
        activity.applyReclaim(b.key(), reclaimed(b));
        activity.applyReclaim(a.key(), new Resumed(a, "team-a", List.of(), "alice", T.plusSeconds(60)));
        activity.applyReclaim("ignored", null);

        assertThat(activity.reclaimsIn("team-a"))
                .singleElement()
                .isInstanceOf(Resumed.class)
                .extracting(ReclaimEvent::workload)
                .isEqualTo(a);
        assertThat(activity.reclaimsIn("team-b")).singleElement().isInstanceOf(Reclaimed.class);
        assertThat(activity.reclaimsIn("team-c")).isEmpty();
        assertThat(activity.reclaimPendingIn("team-a")).isEmpty();
    }

    private static Reclaimed reclaimed(WorkloadRef w) {
        return new Reclaimed(
                w, w.namespace(), List.of(new ScaledGroup("workers", 2, null, 0)), 2, 1800, "to 0", false, T);
    }
}
