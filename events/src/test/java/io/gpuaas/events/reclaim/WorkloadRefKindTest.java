package io.gpuaas.events.reclaim;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

/** What a workload path may call a kind, the same for idle-reclaimer's resume and booking-service's keep. */
class WorkloadRefKindTest {

    @ParameterizedTest
    @ValueSource(strings = {"RayCluster", "raycluster", "RAYCLUSTER", "RayClusters", "rayclusters"})
    void shouldNameARayClusterAsEventsDoWhenTheUserTypesAnySpellingOfIt(String typed) {
        assertThat(WorkloadRef.canonicalKind(typed)).contains("RayCluster").contains(WorkloadRef.RAY_CLUSTER);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {"InferenceService", "inferenceservice", "InferenceServices", "inferenceservices", "isvc", "ISVC"
            })
    void shouldNameAnInferenceServiceAsEventsDoWhenTheUserTypesAnySpellingOfIt(String typed) {
        assertThat(WorkloadRef.canonicalKind(typed))
                .contains("InferenceService")
                .contains(WorkloadRef.INFERENCE_SERVICE);
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(
            strings = {
                "Deployment",
                "rc",
                "ray",
                "isvcs",
                "Ray Cluster",
                "RayCluster/x",
                "raycluster ",
                "inferenceservice.serving.kserve.io"
            })
    void shouldRefuseTheKindWhenItIsNoReclaimableWorkload(String typed) {
        assertThat(WorkloadRef.canonicalKind(typed)).isEmpty();
    }
}
