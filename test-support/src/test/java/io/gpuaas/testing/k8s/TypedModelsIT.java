package io.gpuaas.testing.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.kube.kserve.v1beta1.InferenceService;
import io.gpuaas.kube.kserve.v1beta1.InferenceServiceSpec;
import io.gpuaas.kube.kserve.v1beta1.inferenceservicespec.Predictor;
import io.gpuaas.kube.kserve.v1beta1.inferenceservicespec.predictor.Model;
import io.gpuaas.kube.kserve.v1beta1.inferenceservicespec.predictor.model.ModelFormat;
import io.gpuaas.kube.kueue.v1beta2.ClusterQueue;
import io.gpuaas.kube.kueue.v1beta2.ClusterQueueSpec;
import io.gpuaas.kube.kueue.v1beta2.clusterqueuespec.ResourceGroups;
import io.gpuaas.kube.kueue.v1beta2.clusterqueuespec.resourcegroups.Flavors;
import io.gpuaas.kube.kueue.v1beta2.clusterqueuespec.resourcegroups.flavors.Resources;
import io.gpuaas.kube.ray.v1.RayCluster;
import io.gpuaas.kube.ray.v1.RayClusterSpec;
import io.gpuaas.kube.ray.v1.rayclusterspec.HeadGroupSpec;
import io.gpuaas.kube.ray.v1.rayclusterspec.WorkerGroupSpecs;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The classes kube-models generates work against the API server the services talk to: created, read and updated
 * through {@code client.resources(X.class)}, and a field another controller set that gpuaas does not declare is
 * still there after gpuaas read the object, changed it and wrote it back.
 */
@ExtendWith(KubernetesApiExtension.class)
class TypedModelsIT {

    KubernetesApi api;
    KubernetesClient client;

    @Test
    void shouldKeepKueuesDefaultsWhenAClusterQueueIsReadChangedAndUpdated() {
        var queues = client.resources(ClusterQueue.class);
        queues.resource(clusterQueue("gpuaas-team-a", "4")).create();
        // Kueue's webhook defaults flavorFungibility, which gpuaas never sets.
        api.resources(GpuaasCrd.CLUSTER_QUEUE).withName("gpuaas-team-a").edit(q -> {
            spec(q).put("flavorFungibility", Map.of("whenCanBorrow", "MayStopSearch"));
            return q;
        });

        ClusterQueue read = queues.withName("gpuaas-team-a").get();
        assertThat(read.getSpec().getCohortName()).isEqualTo("gpuaas-pool");
        quota(read).setNominalQuota(new IntOrString("6"));
        queues.resource(read).update();

        GenericKubernetesResource stored =
                api.resources(GpuaasCrd.CLUSTER_QUEUE).withName("gpuaas-team-a").get();
        assertThat(stored.<String>get("spec", "resourceGroups", 0, "flavors", 0, "resources", 0, "nominalQuota"))
                .isEqualTo("6");
        assertThat(stored.<String>get("spec", "flavorFungibility", "whenCanBorrow"))
                .isEqualTo("MayStopSearch");
        assertThat(queues.list().getItems())
                .extracting(q -> q.getMetadata().getName())
                .contains("gpuaas-team-a");
    }

    @Test
    void shouldKeepKubeRaysFieldsWhenARayClusterIsScaledToZeroThroughTheTypedClass() {
        var clusters = client.resources(RayCluster.class).inNamespace("team-a");
        clusters.resource(rayCluster("demo-ray", 2)).create();
        api.resources(GpuaasCrd.RAY_CLUSTER)
                .inNamespace("team-a")
                .withName("demo-ray")
                .edit(c -> {
                    spec(c).put("autoscalerOptions", Map.of("idleTimeoutSeconds", 60));
                    workers(c).put("idleTimeoutSeconds", 120);
                    return c;
                });

        RayCluster read = clusters.withName("demo-ray").get();
        WorkerGroupSpecs workers = read.getSpec().getWorkerGroupSpecs().getFirst();
        assertThat(workers.getReplicas()).isEqualTo(2);
        assertThat(workers.getTemplate()
                        .getSpec()
                        .getContainers()
                        .getFirst()
                        .getResources()
                        .getLimits())
                .containsEntry("nvidia.com/gpu", new Quantity("1"));
        workers.setReplicas(0);
        workers.setMinReplicas(0);
        clusters.resource(read).update();

        GenericKubernetesResource stored = api.resources(GpuaasCrd.RAY_CLUSTER)
                .inNamespace("team-a")
                .withName("demo-ray")
                .get();
        assertThat(stored.<Integer>get("spec", "workerGroupSpecs", 0, "replicas"))
                .isZero();
        assertThat(stored.<Integer>get("spec", "workerGroupSpecs", 0, "idleTimeoutSeconds"))
                .isEqualTo(120);
        assertThat(stored.<Integer>get("spec", "autoscalerOptions", "idleTimeoutSeconds"))
                .isEqualTo(60);
    }

    @Test
    void shouldKeepKServesFieldsWhenAnInferenceServiceIsScaledToZeroThroughTheTypedClass() {
        var services = client.resources(InferenceService.class).inNamespace("team-b");
        services.resource(inferenceService("demo-llm")).create();
        api.resources(GpuaasCrd.INFERENCE_SERVICE)
                .inNamespace("team-b")
                .withName("demo-llm")
                .edit(s -> {
                    predictor(s).put("scaleMetric", "concurrency");
                    return s;
                });

        InferenceService read = services.withName("demo-llm").get();
        assertThat(read.getSpec().getPredictor().getModel().getModelFormat().getName())
                .isEqualTo("huggingface");
        read.getSpec().getPredictor().setMinReplicas(0);
        services.resource(read).update();

        GenericKubernetesResource stored = api.resources(GpuaasCrd.INFERENCE_SERVICE)
                .inNamespace("team-b")
                .withName("demo-llm")
                .get();
        assertThat(stored.<Integer>get("spec", "predictor", "minReplicas")).isZero();
        assertThat(stored.<String>get("spec", "predictor", "scaleMetric")).isEqualTo("concurrency");
        assertThat(stored.<String>get("spec", "predictor", "model", "resources", "limits", "nvidia.com/gpu"))
                .isEqualTo("1");
    }

    private static ClusterQueue clusterQueue(String name, String nominal) {
        Resources quota = new Resources();
        quota.setName("nvidia.com/gpu");
        quota.setNominalQuota(new IntOrString(nominal));
        Flavors flavor = new Flavors();
        flavor.setName("a100");
        flavor.setResources(List.of(quota));
        ResourceGroups group = new ResourceGroups();
        group.setCoveredResources(List.of("nvidia.com/gpu"));
        group.setFlavors(List.of(flavor));
        ClusterQueueSpec spec = new ClusterQueueSpec();
        spec.setCohortName("gpuaas-pool");
        spec.setStopPolicy("None");
        spec.setResourceGroups(List.of(group));
        ClusterQueue queue = new ClusterQueue();
        queue.setMetadata(new ObjectMetaBuilder().withName(name).build());
        queue.setSpec(spec);
        return queue;
    }

    private static RayCluster rayCluster(String name, int workers) {
        HeadGroupSpec head = new HeadGroupSpec();
        head.setRayStartParams(Map.of("dashboard-host", "0.0.0.0"));
        head.setTemplate(new PodTemplateSpecBuilder()
                .withNewSpec()
                .withContainers(new ContainerBuilder()
                        .withName("ray-head")
                        .withImage("rayproject/ray:2.49.0")
                        .build())
                .endSpec()
                .build());
        WorkerGroupSpecs group = new WorkerGroupSpecs();
        group.setGroupName("gpu-workers");
        group.setReplicas(workers);
        group.setMinReplicas(1);
        group.setMaxReplicas(workers * 2);
        group.setTemplate(new PodTemplateSpecBuilder()
                .withNewSpec()
                .withContainers(new ContainerBuilder()
                        .withName("ray-worker")
                        .withImage("rayproject/ray:2.49.0-gpu")
                        .withNewResources()
                        .addToLimits("nvidia.com/gpu", new Quantity("1"))
                        .endResources()
                        .build())
                .endSpec()
                .build());
        RayClusterSpec spec = new RayClusterSpec();
        spec.setRayVersion("2.49.0");
        spec.setHeadGroupSpec(head);
        spec.setWorkerGroupSpecs(List.of(group));
        RayCluster cluster = new RayCluster();
        cluster.setMetadata(new ObjectMetaBuilder().withName(name).build());
        cluster.setSpec(spec);
        return cluster;
    }

    private static InferenceService inferenceService(String name) {
        ModelFormat format = new ModelFormat();
        format.setName("huggingface");
        Model model = new Model();
        model.setModelFormat(format);
        model.setImage("kserve/huggingfaceserver:v0.15.0");
        model.setResources(new io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder()
                .addToLimits("nvidia.com/gpu", new Quantity("1"))
                .build());
        Predictor predictor = new Predictor();
        predictor.setMinReplicas(1);
        predictor.setMaxReplicas(1);
        predictor.setModel(model);
        InferenceServiceSpec spec = new InferenceServiceSpec();
        spec.setPredictor(predictor);
        InferenceService service = new InferenceService();
        service.setMetadata(new ObjectMetaBuilder().withName(name).build());
        service.setSpec(spec);
        return service;
    }

    private static Resources quota(ClusterQueue queue) {
        return queue.getSpec()
                .getResourceGroups()
                .getFirst()
                .getFlavors()
                .getFirst()
                .getResources()
                .getFirst();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> spec(GenericKubernetesResource object) {
        return (Map<String, Object>) object.getAdditionalProperties().get("spec");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> workers(GenericKubernetesResource cluster) {
        return ((List<Map<String, Object>>) spec(cluster).get("workerGroupSpecs")).getFirst();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> predictor(GenericKubernetesResource service) {
        return (Map<String, Object>) spec(service).get("predictor");
    }
}
