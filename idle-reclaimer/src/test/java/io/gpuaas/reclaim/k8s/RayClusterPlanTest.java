package io.gpuaas.reclaim.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.gpuaas.events.reclaim.ReclaimEvent.ScaledGroup;
import io.gpuaas.reclaim.Fixtures;
import io.gpuaas.reclaim.Fixtures.Group;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RayClusterPlanTest {

    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

    private static Map<String, Object> group(GenericKubernetesResource cluster, String name) {
        return KubeResources.list(KubeResources.spec(cluster), "workerGroupSpecs").stream()
                .filter(g -> name.equals(g.get("groupName"))).findFirst().orElseThrow();
    }

    @Test
    void shouldScaleOnlyGpuGroupsToZeroAndRememberTheirValues() {
        GenericKubernetesResource cluster = Fixtures.rayCluster("ns", "rc", false, Map.of(),
                new Group("gpu", 3, null), new Group("cpu", 2, 1));

        ScalePlan plan = RayClusterPlan.reclaim(cluster, Set.of("gpu"), g -> List.of("w1"), null, "a1", NOW);

        assertThat(plan.groups()).containsExactly(new ScaledGroup("gpu", 3, null, 0));
        assertThat(group(cluster, "gpu")).containsEntry("replicas", 0).containsEntry("minReplicas", 0)
                .doesNotContainKey("scaleStrategy");
        assertThat(group(cluster, "cpu")).containsEntry("replicas", 2).containsEntry("minReplicas", 1);
        assertThat(plan.state().groups()).containsExactly(new ReclaimedState.GroupState("gpu", 3, null, null));
    }

    @Test
    void shouldListWorkersToDeleteWhenInTreeAutoscalingIsOn() {
        GenericKubernetesResource cluster = Fixtures.rayCluster("ns", "rc", true, Map.of(), new Group("gpu", 2, 1));

        RayClusterPlan.reclaim(cluster, Set.of("gpu"), g -> List.of("w1", "w2"), null, "a1", NOW);

        assertThat(KubeResources.child(group(cluster, "gpu"), "scaleStrategy"))
                .containsEntry("workersToDelete", List.of("w1", "w2"));
    }

    @Test
    void shouldRestoreExactlyAndRemoveFieldsThatWereAbsent() {
        GenericKubernetesResource cluster = Fixtures.rayCluster("ns", "rc", true, Map.of(), new Group("gpu", 4, null));
        ScalePlan reclaim = RayClusterPlan.reclaim(cluster, Set.of("gpu"), g -> List.of("w1"), null, "a1", NOW);

        RayClusterPlan.resume(cluster, ReclaimedState.parse(reclaim.state().toJson()));

        assertThat(group(cluster, "gpu")).containsEntry("replicas", 4).doesNotContainKeys("minReplicas",
                "scaleStrategy");
    }

    @Test
    void shouldKeepTheOriginalValuesWhenReclaimedAgainBeforeAResume() {
        GenericKubernetesResource cluster = Fixtures.rayCluster("ns", "rc", false, Map.of(), new Group("gpu", 2, 1));
        ReclaimedState first = RayClusterPlan.reclaim(cluster, Set.of("gpu"), g -> List.of(), null, "a1", NOW).state();

        ScalePlan second = RayClusterPlan.reclaim(cluster, Set.of("gpu"), g -> List.of(), first, "a2", NOW);

        assertThat(second.state().groups()).containsExactly(new ReclaimedState.GroupState("gpu", 2, 1, null));
        assertThat(second.state().actionId()).isEqualTo("a2");
    }
}
