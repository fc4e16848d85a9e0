package io.gpuaas.local.k8s;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.local.model.OwnerReader;
import io.gpuaas.testing.k8s.GpuaasCrd;
import java.util.List;
import java.util.Map;

/**
 * The demo workloads: a Ray cluster in team-a with two 1g.18gb workers and a one-GPU model server in team-b, both
 * queued on the tenant's LocalQueue {@code gpuaas}, so they stay pending until the tenant's booking becomes quota.
 */
public final class DemoWorkloads {

    public static final String QUEUE = "gpuaas";

    private DemoWorkloads() {
    }

    public static void seed(KubernetesClient client) {
        client.genericKubernetesResources(GpuaasCrd.RAY_CLUSTER.context()).inNamespace("team-a")
                .resource(rayCluster("team-a", "demo-ray", "nvidia.com/mig-1g.18gb", 2)).create();
        client.genericKubernetesResources(GpuaasCrd.INFERENCE_SERVICE.context()).inNamespace("team-b")
                .resource(inferenceService("team-b", "demo-llm", "nvidia.com/gpu", 1)).create();
    }

    public static GenericKubernetesResource rayCluster(String namespace, String name, String resource, int workers) {
        GenericKubernetesResource cluster = resource(GpuaasCrd.RAY_CLUSTER, namespace, name);
        Map<String, Object> head = Map.of("rayStartParams", Map.of("dashboard-host", "0.0.0.0"), "template",
                podTemplate("ray-head", "rayproject/ray:2.49.0", Map.of("cpu", "2", "memory", "8Gi")));
        Map<String, Object> group = Map.of("groupName", "gpu-workers", "replicas", workers, "minReplicas", 0,
                "maxReplicas", workers * 2, "rayStartParams", Map.of(),
                "template", podTemplate("ray-worker", "rayproject/ray:2.49.0-gpu",
                        Map.of("cpu", "4", "memory", "32Gi", resource, "1")));
        cluster.setAdditionalProperty("spec", Map.of("rayVersion", "2.49.0", "headGroupSpec", head,
                "workerGroupSpecs", List.of(group)));
        return cluster;
    }

    public static GenericKubernetesResource inferenceService(String namespace, String name, String resource, int replicas) {
        GenericKubernetesResource service = resource(GpuaasCrd.INFERENCE_SERVICE, namespace, name);
        Map<String, Object> model = Map.of("modelFormat", Map.of("name", "huggingface"),
                "image", "kserve/huggingfaceserver:v0.15.0",
                "resources", Map.of("requests", Map.of("cpu", "4", "memory", "32Gi", resource, "1"),
                        "limits", Map.of(resource, "1")));
        service.setAdditionalProperty("spec", Map.of("predictor", Map.of("minReplicas", replicas,
                "maxReplicas", replicas, "model", model)));
        return service;
    }

    private static Map<String, Object> podTemplate(String container, String image, Map<String, String> requests) {
        Map<String, String> limits = requests.entrySet().stream()
                .filter(e -> e.getKey().startsWith(OwnerReader.ACCELERATOR_PREFIX))
                .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
        return Map.of("spec", Map.of("containers", List.of(Map.of("name", container, "image", image,
                "resources", Map.of("requests", requests, "limits", limits)))));
    }

    private static GenericKubernetesResource resource(GpuaasCrd crd, String namespace, String name) {
        GenericKubernetesResource resource = new GenericKubernetesResource();
        resource.setApiVersion(crd.apiVersion());
        resource.setKind(crd.kind());
        resource.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace)
                .withLabels(Map.of(OwnerReader.QUEUE_LABEL, QUEUE)).build());
        return resource;
    }
}
