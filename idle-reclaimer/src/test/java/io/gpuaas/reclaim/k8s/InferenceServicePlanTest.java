package io.gpuaas.reclaim.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.kube.kserve.v1beta1.InferenceService;
import io.gpuaas.reclaim.Fixtures;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InferenceServicePlanTest {

    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

    private static Integer minReplicas(InferenceService isvc) {
        return isvc.getSpec().getPredictor().getMinReplicas();
    }

    @Test
    void shouldSetServerlessMinReplicasToZeroAndRestoreAnAbsentValueAsAbsent() {
        InferenceService isvc = Fixtures.inferenceService("ns", "chat", null, Map.of());

        ScalePlan plan = InferenceServicePlan.reclaimServerless(isvc, null, "a1", NOW);
        assertThat(minReplicas(isvc)).isZero();

        InferenceServicePlan.resume(isvc, ReclaimedState.parse(plan.state().toJson()));
        assertThat(minReplicas(isvc)).isNull();
    }

    @Test
    void shouldStopARawDeploymentAndRestoreThePreviousStopValue() {
        InferenceService isvc = Fixtures.inferenceService(
                "ns", "chat", 1, Map.of(KubeResources.KSERVE_DEPLOYMENT_MODE, "RawDeployment"));
        assertThat(InferenceServicePlan.rawMode(isvc)).isTrue();

        ScalePlan plan = InferenceServicePlan.reclaimByStop(isvc, null, "a1", NOW);
        assertThat(KubeResources.annotations(isvc)).containsEntry(KubeResources.KSERVE_STOP, "true");
        assertThat(minReplicas(isvc)).isEqualTo(1);

        InferenceServicePlan.resume(isvc, plan.state());
        assertThat(KubeResources.annotations(isvc)).doesNotContainKey(KubeResources.KSERVE_STOP);
    }
}
