package io.gpuaas.reclaim.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.events.reclaim.ReclaimEvent.ScaledGroup;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.kube.kserve.v1beta1.InferenceService;
import io.gpuaas.kube.ray.v1.RayCluster;
import io.gpuaas.reclaim.Fixtures;
import io.gpuaas.reclaim.model.OwnerLookup;
import io.gpuaas.testing.k8s.KubernetesApiExtension;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The scaler against the CRUD mock: raw-mode predictors through their Deployment, and acting once per action. */
@ExtendWith(KubernetesApiExtension.class)
class WorkerScalerIT {

    private static final String NS = "team-b";
    private static final OwnerLookup NO_PODS = new OwnerLookup() {
        @Override
        public Optional<io.gpuaas.reclaim.model.Owner> ownerOf(String namespace, String pod) {
            return Optional.empty();
        }

        @Override
        public List<String> podsOf(WorkloadRef workload, String group) {
            return List.of();
        }

        @Override
        public Map<String, Integer> gpusPerPod(WorkloadRef workload) {
            return Map.of();
        }
    };

    private static Deployment deployment(String name, int replicas) {
        return new DeploymentBuilder().withNewMetadata().withNamespace(NS).withName(name).endMetadata()
                .withNewSpec().withReplicas(replicas).withNewSelector().addToMatchLabels("app", name).endSelector()
                .withNewTemplate().withNewMetadata().addToLabels("app", name).endMetadata().withNewSpec()
                .addNewContainer().withName("kserve-container").withImage("vllm").endContainer().endSpec()
                .endTemplate().endSpec().build();
    }

    private static int replicas(KubernetesClient client, String name) {
        return client.apps().deployments().inNamespace(NS).withName(name).get().getSpec().getReplicas();
    }

    @Test
    void shouldScaleARawPredictorDeploymentToZeroOnceAndRestoreItsReplicas(KubernetesClient client) {
        client.resources(InferenceService.class).inNamespace(NS).resource(
                Fixtures.inferenceService(NS, "raw", 1, Map.of(KubeResources.KSERVE_DEPLOYMENT_MODE, "RawDeployment")))
                .create();
        client.apps().deployments().inNamespace(NS).resource(deployment("raw-predictor", 3)).create();
        WorkerScaler scaler = new WorkerScaler(client, NO_PODS, WorkerScaler.RawStrategy.DEPLOYMENT, false,
                Clock.systemUTC());
        WorkloadRef ref = new WorkloadRef(NS, "InferenceService", "raw");

        ScaleOutcome first = scaler.reclaim(ref, Set.of("predictor"), "raw@1", false);
        String version = client.resources(InferenceService.class).inNamespace(NS).withName("raw").get()
                .getMetadata().getResourceVersion();
        ScaleOutcome retry = scaler.reclaim(ref, Set.of("predictor"), "raw@1", false);

        assertThat(first).isEqualTo(new ScaleOutcome.Applied(List.of(new ScaledGroup("predictor", 3, null, 0)),
                "Deployment raw-predictor to 0", false));
        assertThat(retry).isInstanceOfSatisfying(ScaleOutcome.Applied.class, a -> assertThat(a.alreadyApplied()).isTrue());
        assertThat(client.resources(InferenceService.class).inNamespace(NS).withName("raw").get().getMetadata()
                .getResourceVersion()).as("a retry writes nothing").isEqualTo(version);
        assertThat(replicas(client, "raw-predictor")).isZero();

        List<ScaledGroup> restored = scaler.resume(ref);

        assertThat(restored).containsExactly(new ScaledGroup("predictor", 0, 0, 3));
        assertThat(replicas(client, "raw-predictor")).isEqualTo(3);
        assertThat(scaler.resume(ref)).as("nothing left to resume").isNull();
    }

    @Test
    void shouldReclaimAnElasticKueueClusterInPlace(KubernetesClient client) {
        client.resources(RayCluster.class).inNamespace(NS).resource(
                Fixtures.rayCluster(NS, "elastic", false, Map.of(KubeResources.KUEUE_QUEUE_LABEL, "gpuaas",
                        KubeResources.KUEUE_ELASTIC, "true"), new Fixtures.Group("gpu", 2, 1))).create();
        WorkerScaler scaler = new WorkerScaler(client, NO_PODS, WorkerScaler.RawStrategy.STOP_ANNOTATION, false,
                Clock.systemUTC());

        ScaleOutcome outcome = scaler.reclaim(new WorkloadRef(NS, "RayCluster", "elastic"), Set.of("gpu"), "e@1", false);

        assertThat(outcome).isInstanceOf(ScaleOutcome.Applied.class);
    }
}
