package io.gpuaas.reclaim.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
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

/**
 * The scaler against the CRUD mock: raw-mode predictors through their Deployment, acting once per action, and
 * giving back objects exactly as they were, fields gpuaas does not model included.
 */
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
        return new DeploymentBuilder()
                .withNewMetadata()
                .withNamespace(NS)
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withReplicas(replicas)
                .withNewSelector()
                .addToMatchLabels("app", name)
                .endSelector()
                .withNewTemplate()
                .withNewMetadata()
                .addToLabels("app", name)
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("kserve-container")
                .withImage("vllm")
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build();
    }

    private static int replicas(KubernetesClient client, String name) {
        return client.apps()
                .deployments()
                .inNamespace(NS)
                .withName(name)
                .get()
                .getSpec()
                .getReplicas();
    }

    @Test
    void shouldScaleARawPredictorDeploymentToZeroOnceAndRestoreItsReplicas(KubernetesClient client) {
        client.resources(InferenceService.class)
                .inNamespace(NS)
                .resource(Fixtures.inferenceService(
                        NS, "raw", 1, Map.of(KubeResources.KSERVE_DEPLOYMENT_MODE, "RawDeployment")))
                .create();
        client.apps()
                .deployments()
                .inNamespace(NS)
                .resource(deployment("raw-predictor", 3))
                .create();
        WorkerScaler scaler =
                new WorkerScaler(client, NO_PODS, WorkerScaler.RawStrategy.DEPLOYMENT, false, Clock.systemUTC());
        WorkloadRef ref = new WorkloadRef(NS, "InferenceService", "raw");

        ScaleOutcome first = scaler.reclaim(ref, Set.of("predictor"), "raw@1", false);
        String version = client.resources(InferenceService.class)
                .inNamespace(NS)
                .withName("raw")
                .get()
                .getMetadata()
                .getResourceVersion();
        ScaleOutcome retry = scaler.reclaim(ref, Set.of("predictor"), "raw@1", false);

        assertThat(first)
                .isEqualTo(new ScaleOutcome.Applied(
                        List.of(new ScaledGroup("predictor", 3, null, 0)), "Deployment raw-predictor to 0", false));
        assertThat(retry).isInstanceOfSatisfying(ScaleOutcome.Applied.class, a -> assertThat(a.alreadyApplied())
                .isTrue());
        assertThat(client.resources(InferenceService.class)
                        .inNamespace(NS)
                        .withName("raw")
                        .get()
                        .getMetadata()
                        .getResourceVersion())
                .as("a retry writes nothing")
                .isEqualTo(version);
        assertThat(replicas(client, "raw-predictor")).isZero();

        List<ScaledGroup> restored = scaler.resume(ref);

        assertThat(restored).containsExactly(new ScaledGroup("predictor", 0, 0, 3));
        assertThat(replicas(client, "raw-predictor")).isEqualTo(3);
        assertThat(scaler.resume(ref)).as("nothing left to resume").isNull();
    }

    @Test
    void shouldReclaimAnElasticKueueClusterInPlace(KubernetesClient client) {
        client.resources(RayCluster.class)
                .inNamespace(NS)
                .resource(Fixtures.rayCluster(
                        NS,
                        "elastic",
                        false,
                        Map.of(KubeResources.KUEUE_QUEUE_LABEL, "gpuaas", KubeResources.KUEUE_ELASTIC, "true"),
                        new Fixtures.Group("gpu", 2, 1)))
                .create();
        WorkerScaler scaler =
                new WorkerScaler(client, NO_PODS, WorkerScaler.RawStrategy.STOP_ANNOTATION, false, Clock.systemUTC());

        ScaleOutcome outcome =
                scaler.reclaim(new WorkloadRef(NS, "RayCluster", "elastic"), Set.of("gpu"), "e@1", false);

        assertThat(outcome).isInstanceOf(ScaleOutcome.Applied.class);
    }

    /** A RayCluster with fields gpuaas' schema does not declare, at every level the scaler writes. */
    private static final String UNMODELLED_RAY = """
            apiVersion: ray.io/v1
            kind: RayCluster
            metadata: {name: unmodelled, namespace: team-b, labels: {team: b}}
            spec:
              enableInTreeAutoscaling: true
              autoscalerOptions: {idleTimeoutSeconds: 60, upscalingMode: Default}
              headGroupSpec:
                serviceType: ClusterIP
                template: {spec: {containers: [{name: ray-head}]}}
              workerGroupSpecs:
              - groupName: gpu
                replicas: 2
                maxReplicas: 4
                idleTimeoutSeconds: 30
                template:
                  metadata: {labels: {team: b}}
                  spec: {containers: [{name: ray-worker}], priorityClassName: batch}
            """;

    private static final String UNMODELLED_ISVC = """
            apiVersion: serving.kserve.io/v1beta1
            kind: InferenceService
            metadata: {name: unmodelled, namespace: team-b}
            spec:
              transformer: {containers: [{name: tokenizer, image: tok}]}
              predictor:
                scaleTarget: 80
                scaleMetric: concurrency
                model: {modelFormat: {name: huggingface, version: "1"}, runtime: vllm, storageUri: "s3://m"}
            """;

    /** The object as the API server holds it, without going through the typed classes. */
    private static GenericKubernetesResource raw(KubernetesClient client, Class<? extends HasMetadata> type) {
        return client.genericKubernetesResources(ResourceDefinitionContext.fromResourceType(type))
                .inNamespace(NS)
                .withName("unmodelled")
                .get();
    }

    private static void createRaw(KubernetesClient client, Class<? extends HasMetadata> type, String yaml) {
        client.genericKubernetesResources(ResourceDefinitionContext.fromResourceType(type))
                .inNamespace(NS)
                .resource(client.getKubernetesSerialization().unmarshal(yaml, GenericKubernetesResource.class))
                .create();
    }

    @Test
    void shouldGiveBackARayClusterExactlyAsItWasWhenResumedKeepingFieldsGpuaasDoesNotModel(KubernetesClient client) {
        createRaw(client, RayCluster.class, UNMODELLED_RAY);
        Object before = raw(client, RayCluster.class).get("spec");
        WorkerScaler scaler =
                new WorkerScaler(client, NO_PODS, WorkerScaler.RawStrategy.STOP_ANNOTATION, false, Clock.systemUTC());
        WorkloadRef ref = new WorkloadRef(NS, "RayCluster", "unmodelled");

        assertThat(scaler.reclaim(ref, Set.of("gpu"), "u@1", false)).isInstanceOf(ScaleOutcome.Applied.class);
        GenericKubernetesResource reclaimed = raw(client, RayCluster.class);
        assertThat(reclaimed.<Object>get("spec", "autoscalerOptions", "idleTimeoutSeconds"))
                .isEqualTo(60);
        assertThat(reclaimed.<Object>get("spec", "workerGroupSpecs", 0, "idleTimeoutSeconds"))
                .isEqualTo(30);
        assertThat(reclaimed.<Object>get("spec", "workerGroupSpecs", 0, "replicas"))
                .isEqualTo(0);
        assertThat(scaler.resume(ref)).isNotNull();

        GenericKubernetesResource resumed = raw(client, RayCluster.class);
        assertThat(resumed.<Object>get("spec"))
                .as("replicas back, minReplicas and scaleStrategy absent again, " + "the unmodelled fields untouched")
                .isEqualTo(before);
        assertThat(resumed.getMetadata().getLabels()).containsEntry("team", "b");
    }

    @Test
    void shouldGiveBackAnInferenceServiceExactlyAsItWasWhenResumedKeepingFieldsGpuaasDoesNotModel(
            KubernetesClient client) {
        createRaw(client, InferenceService.class, UNMODELLED_ISVC);
        Object before = raw(client, InferenceService.class).get("spec");
        WorkerScaler scaler =
                new WorkerScaler(client, NO_PODS, WorkerScaler.RawStrategy.STOP_ANNOTATION, false, Clock.systemUTC());
        WorkloadRef ref = new WorkloadRef(NS, "InferenceService", "unmodelled");

        assertThat(scaler.reclaim(ref, Set.of("predictor"), "u@1", false)).isInstanceOf(ScaleOutcome.Applied.class);
        GenericKubernetesResource reclaimed = raw(client, InferenceService.class);
        assertThat(reclaimed.<Object>get("spec", "predictor", "minReplicas")).isEqualTo(0);
        assertThat(reclaimed.<Object>get("spec", "predictor", "scaleTarget")).isEqualTo(80);
        assertThat(reclaimed.<Object>get("spec", "transformer")).isNotNull();
        assertThat(scaler.resume(ref)).isNotNull();

        assertThat(raw(client, InferenceService.class).<Object>get("spec"))
                .as("minReplicas absent again, the unmodelled fields untouched")
                .isEqualTo(before);
    }
}
