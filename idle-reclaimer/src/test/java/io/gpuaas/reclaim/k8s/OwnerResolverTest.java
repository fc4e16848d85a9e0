package io.gpuaas.reclaim.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.reclaim.Fixtures;
import io.gpuaas.reclaim.model.Owner;
import org.junit.jupiter.api.Test;

class OwnerResolverTest {

    @Test
    void shouldMapARayWorkerToItsClusterAndGroupWithItsGpus() {
        Pod pod = Fixtures.rayWorker("team-a", "train", "gpu-group", "train-worker-x", 4);

        Owner owner = OwnerResolver.ownerOf(pod).orElseThrow();

        assertThat(owner.workload()).isEqualTo(new WorkloadRef("team-a", "RayCluster", "train"));
        assertThat(owner.group()).isEqualTo("gpu-group");
        assertThat(owner.gpus()).isEqualTo(4);
    }

    @Test
    void shouldMapAKServePredictorCountingMigSlices() {
        Pod pod = Fixtures.predictor("team-a", "chat", "chat-predictor-0", "nvidia.com/mig-1g.18gb", 2);

        Owner owner = OwnerResolver.ownerOf(pod).orElseThrow();

        assertThat(owner.workload()).isEqualTo(new WorkloadRef("team-a", "InferenceService", "chat"));
        assertThat(owner.gpus()).isEqualTo(2);
    }

    @Test
    void shouldIgnoreRayHeadsAndUnlabelledPods() {
        Pod head = new PodBuilder(Fixtures.rayWorker("team-a", "train", "headgroup", "train-head", 0))
                .editMetadata()
                .addToLabels("ray.io/node-type", "head")
                .endMetadata()
                .build();
        Pod plain = new PodBuilder()
                .withNewMetadata()
                .withNamespace("team-a")
                .withName("x")
                .endMetadata()
                .build();

        assertThat(OwnerResolver.ownerOf(head)).isEmpty();
        assertThat(OwnerResolver.ownerOf(plain)).isEmpty();
    }
}
