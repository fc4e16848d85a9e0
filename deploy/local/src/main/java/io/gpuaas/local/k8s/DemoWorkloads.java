package io.gpuaas.local.k8s;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.kube.kserve.v1beta1.InferenceService;
import io.gpuaas.kube.kserve.v1beta1.InferenceServiceSpec;
import io.gpuaas.kube.kserve.v1beta1.inferenceservicespec.Predictor;
import io.gpuaas.kube.kserve.v1beta1.inferenceservicespec.predictor.Model;
import io.gpuaas.kube.kserve.v1beta1.inferenceservicespec.predictor.model.ModelFormat;
import io.gpuaas.kube.ray.v1.RayCluster;
import io.gpuaas.kube.ray.v1.RayClusterSpec;
import io.gpuaas.kube.ray.v1.rayclusterspec.HeadGroupSpec;
import io.gpuaas.kube.ray.v1.rayclusterspec.WorkerGroupSpecs;
import io.gpuaas.local.model.OwnerReader;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The demo workloads: a Ray cluster in team-a with two 1g.18gb workers and a one-GPU model server in team-b, both
 * queued on the tenant's LocalQueue {@code gpuaas}, so they stay pending until the tenant's booking becomes quota.
 */
public final class DemoWorkloads {

    public static final String QUEUE = "gpuaas";

    private DemoWorkloads() {}

    public static void seed(KubernetesClient client) {
        client.resources(RayCluster.class)
                .inNamespace("team-a")
                .resource(rayCluster("team-a", "demo-ray", "nvidia.com/mig-1g.18gb", 2))
                .create();
        client.resources(InferenceService.class)
                .inNamespace("team-b")
                .resource(inferenceService("team-b", "demo-llm", "nvidia.com/gpu", 1))
                .create();
    }

    public static RayCluster rayCluster(String namespace, String name, String resource, int workers) {
        HeadGroupSpec head = new HeadGroupSpec();
        head.setRayStartParams(Map.of("dashboard-host", "0.0.0.0"));
        head.setTemplate(podTemplate("ray-head", "rayproject/ray:2.49.0", requests("2", "8Gi", null)));
        WorkerGroupSpecs group = new WorkerGroupSpecs();
        group.setGroupName("gpu-workers");
        group.setReplicas(workers);
        group.setMinReplicas(0);
        group.setMaxReplicas(workers * 2);
        group.setRayStartParams(Map.of());
        group.setTemplate(podTemplate("ray-worker", "rayproject/ray:2.49.0-gpu", requests("4", "32Gi", resource)));
        RayClusterSpec spec = new RayClusterSpec();
        spec.setRayVersion("2.49.0");
        spec.setHeadGroupSpec(head);
        spec.setWorkerGroupSpecs(List.of(group));
        RayCluster cluster = new RayCluster();
        cluster.setMetadata(metadata(namespace, name));
        cluster.setSpec(spec);
        return cluster;
    }

    public static InferenceService inferenceService(String namespace, String name, String resource, int replicas) {
        ModelFormat format = new ModelFormat();
        format.setName("huggingface");
        Model model = new Model();
        model.setModelFormat(format);
        model.setImage("kserve/huggingfaceserver:v0.15.0");
        model.setResources(resources(requests("4", "32Gi", resource)));
        Predictor predictor = new Predictor();
        predictor.setMinReplicas(replicas);
        predictor.setMaxReplicas(replicas);
        predictor.setModel(model);
        InferenceServiceSpec spec = new InferenceServiceSpec();
        spec.setPredictor(predictor);
        InferenceService service = new InferenceService();
        service.setMetadata(metadata(namespace, name));
        service.setSpec(spec);
        return service;
    }

    private static Map<String, Quantity> requests(String cpu, String memory, String accelerator) {
        Map<String, Quantity> requests = new LinkedHashMap<>();
        requests.put("cpu", new Quantity(cpu));
        requests.put("memory", new Quantity(memory));
        if (accelerator != null) {
            requests.put(accelerator, new Quantity("1"));
        }
        return requests;
    }

    /** Extended resources need limits equal to requests; CPU and memory stay unlimited. */
    private static ResourceRequirements resources(Map<String, Quantity> requests) {
        Map<String, Quantity> limits = new LinkedHashMap<>();
        requests.forEach((resource, quantity) -> {
            if (resource.startsWith(OwnerReader.ACCELERATOR_PREFIX)) {
                limits.put(resource, quantity);
            }
        });
        return new ResourceRequirementsBuilder()
                .withRequests(requests)
                .withLimits(limits)
                .build();
    }

    private static PodTemplateSpec podTemplate(String container, String image, Map<String, Quantity> requests) {
        return new PodTemplateSpecBuilder()
                .withNewSpec()
                .withContainers(new ContainerBuilder()
                        .withName(container)
                        .withImage(image)
                        .withResources(resources(requests))
                        .build())
                .endSpec()
                .build();
    }

    private static ObjectMeta metadata(String namespace, String name) {
        return new ObjectMetaBuilder()
                .withName(name)
                .withNamespace(namespace)
                .withLabels(Map.of(OwnerReader.QUEUE_LABEL, QUEUE))
                .build();
    }
}
