package io.gpuaas.reclaim.k8s;

import static io.gpuaas.reclaim.Fixtures.group;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.reclaim.ReclaimEvent.ScaledGroup;
import io.gpuaas.kube.ray.v1.RayCluster;
import io.gpuaas.kube.ray.v1.rayclusterspec.WorkerGroupSpecs;
import io.gpuaas.kube.ray.v1.rayclusterspec.workergroupspecs.ScaleStrategy;
import io.gpuaas.reclaim.Fixtures;
import io.gpuaas.reclaim.Fixtures.Group;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RayClusterPlanTest {

    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void shouldScaleOnlyGpuGroupsToZeroAndRememberTheirValues() {
        RayCluster cluster =
                Fixtures.rayCluster("ns", "rc", false, Map.of(), new Group("gpu", 3, null), new Group("cpu", 2, 1));

        ScalePlan plan = RayClusterPlan.reclaim(cluster, Set.of("gpu"), g -> List.of("w1"), null, "a1", NOW);

        assertThat(plan.groups()).containsExactly(new ScaledGroup("gpu", 3, null, 0));
        assertThat(group(cluster, "gpu"))
                .extracting(
                        WorkerGroupSpecs::getReplicas,
                        WorkerGroupSpecs::getMinReplicas,
                        WorkerGroupSpecs::getScaleStrategy)
                .containsExactly(0, 0, null);
        assertThat(group(cluster, "cpu"))
                .extracting(WorkerGroupSpecs::getReplicas, WorkerGroupSpecs::getMinReplicas)
                .containsExactly(2, 1);
        assertThat(plan.state().groups()).containsExactly(new ReclaimedState.GroupState("gpu", 3, null, null));
    }

    @Test
    void shouldListWorkersToDeleteWhenInTreeAutoscalingIsOn() {
        RayCluster cluster = Fixtures.rayCluster("ns", "rc", true, Map.of(), new Group("gpu", 2, 1));

        RayClusterPlan.reclaim(cluster, Set.of("gpu"), g -> List.of("w1", "w2"), null, "a1", NOW);

        assertThat(group(cluster, "gpu").getScaleStrategy().getWorkersToDelete())
                .containsExactly("w1", "w2");
    }

    @Test
    void shouldRestoreExactlyAndRemoveFieldsThatWereAbsent() {
        RayCluster cluster = Fixtures.rayCluster("ns", "rc", true, Map.of(), new Group("gpu", 4, null));
        ScalePlan reclaim = RayClusterPlan.reclaim(cluster, Set.of("gpu"), g -> List.of("w1"), null, "a1", NOW);

        RayClusterPlan.resume(cluster, ReclaimedState.parse(reclaim.state().toJson()));

        assertThat(group(cluster, "gpu"))
                .extracting(
                        WorkerGroupSpecs::getReplicas,
                        WorkerGroupSpecs::getMinReplicas,
                        WorkerGroupSpecs::getScaleStrategy)
                .containsExactly(4, null, null);
    }

    @Test
    void shouldRestoreAnEarlierWorkersToDeleteAndKeepWhatElseTheScaleStrategyHolds() {
        RayCluster cluster = Fixtures.rayCluster("ns", "rc", true, Map.of(), new Group("gpu", 2, 1));
        WorkerGroupSpecs gpu = group(cluster, "gpu");
        gpu.setScaleStrategy(new ScaleStrategy());
        gpu.getScaleStrategy().setWorkersToDelete(List.of("old"));
        gpu.getScaleStrategy().setAdditionalProperty("futureField", "kept");
        ScalePlan reclaim = RayClusterPlan.reclaim(cluster, Set.of("gpu"), g -> List.of("w1"), null, "a1", NOW);
        assertThat(gpu.getScaleStrategy().getWorkersToDelete()).containsExactly("w1");

        RayClusterPlan.resume(cluster, ReclaimedState.parse(reclaim.state().toJson()));

        assertThat(gpu.getScaleStrategy().getWorkersToDelete()).containsExactly("old");
        assertThat(gpu.getScaleStrategy().getAdditionalProperties()).containsEntry("futureField", "kept");
    }

    @Test
    void shouldKeepTheOriginalValuesWhenReclaimedAgainBeforeAResume() {
        RayCluster cluster = Fixtures.rayCluster("ns", "rc", false, Map.of(), new Group("gpu", 2, 1));
        ReclaimedState first = RayClusterPlan.reclaim(cluster, Set.of("gpu"), g -> List.of(), null, "a1", NOW)
                .state();

        ScalePlan second = RayClusterPlan.reclaim(cluster, Set.of("gpu"), g -> List.of(), first, "a2", NOW);

        assertThat(second.state().groups()).containsExactly(new ReclaimedState.GroupState("gpu", 2, 1, null));
        assertThat(second.state().actionId()).isEqualTo("a2");
    }
}
