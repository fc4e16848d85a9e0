package io.gpuaas.reclaim;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.gpuaas.events.gpu.GpuSample;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Kubernetes objects and GPU samples shaped like the real ones (KubeRay, KServe, dcgm-exporter). */
public final class Fixtures {

    private Fixtures() {
    }

    public static Namespace namespace(String name, String tenant) {
        return new NamespaceBuilder().withNewMetadata().withName(name).addToLabels("gpuaas.io/tenant", tenant)
                .endMetadata().build();
    }

    /** A worker group: name, replicas, minReplicas (null = absent). */
    public record Group(String name, int replicas, Integer minReplicas) {
    }

    public static GenericKubernetesResource rayCluster(String ns, String name, boolean autoscaling,
                                                       Map<String, String> labels, Group... groups) {
        List<Map<String, Object>> specs = new ArrayList<>();
        for (Group g : groups) {
            Map<String, Object> spec = new LinkedHashMap<>();
            spec.put("groupName", g.name());
            spec.put("replicas", g.replicas());
            if (g.minReplicas() != null) {
                spec.put("minReplicas", g.minReplicas());
            }
            spec.put("maxReplicas", 8);
            spec.put("template", Map.of("spec", Map.of("containers", List.of(Map.of("name", "ray-worker")))));
            specs.add(spec);
        }
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("enableInTreeAutoscaling", autoscaling);
        spec.put("headGroupSpec", Map.of("template", Map.of("spec", Map.of("containers",
                List.of(Map.of("name", "ray-head"))))));
        spec.put("workerGroupSpecs", specs);
        return new GenericKubernetesResourceBuilder().withApiVersion("ray.io/v1").withKind("RayCluster")
                .withNewMetadata().withNamespace(ns).withName(name).withLabels(labels).endMetadata()
                .addToAdditionalProperties("spec", spec).build();
    }

    public static GenericKubernetesResource inferenceService(String ns, String name, Integer minReplicas,
                                                             Map<String, String> annotations) {
        Map<String, Object> predictor = new LinkedHashMap<>();
        if (minReplicas != null) {
            predictor.put("minReplicas", minReplicas);
        }
        predictor.put("model", Map.of("modelFormat", Map.of("name", "huggingface"),
                "resources", Map.of("limits", Map.of("nvidia.com/gpu", "1"))));
        return new GenericKubernetesResourceBuilder().withApiVersion("serving.kserve.io/v1beta1")
                .withKind("InferenceService").withNewMetadata().withNamespace(ns).withName(name)
                .withAnnotations(annotations).endMetadata()
                .addToAdditionalProperties("spec", new LinkedHashMap<>(Map.of("predictor", predictor))).build();
    }

    /** A Ray worker pod asking for {@code gpus} full GPUs. */
    public static Pod rayWorker(String ns, String cluster, String group, String pod, int gpus) {
        return new PodBuilder().withNewMetadata().withNamespace(ns).withName(pod)
                .addToLabels("ray.io/cluster", cluster).addToLabels("ray.io/group", group)
                .addToLabels("ray.io/node-type", "worker").endMetadata()
                .withNewSpec().addNewContainer().withName("ray-worker").withImage("rayproject/ray")
                .withNewResources().addToLimits("nvidia.com/gpu", new Quantity(Integer.toString(gpus))).endResources()
                .endContainer().endSpec().build();
    }

    /** A KServe predictor pod asking for {@code count} of {@code resource} (nvidia.com/gpu or nvidia.com/mig-*). */
    public static Pod predictor(String ns, String isvc, String pod, String resource, int count) {
        return new PodBuilder().withNewMetadata().withNamespace(ns).withName(pod)
                .addToLabels("serving.kserve.io/inferenceservice", isvc).addToLabels("component", "predictor")
                .endMetadata().withNewSpec().addNewContainer().withName("kserve-container").withImage("vllm")
                .withNewResources().addToLimits(resource, new Quantity(Integer.toString(count))).endResources()
                .endContainer().endSpec().build();
    }

    /** A dcgm-exporter reading of a full GPU (gpuInstanceId null) or a MIG instance. */
    public static GpuSample sample(String host, String uuid, String gpuInstanceId, String ns, String pod,
                                   Instant time, Double utilization) {
        return new GpuSample(time, host, uuid, 0, "NVIDIA H200", gpuInstanceId,
                gpuInstanceId == null ? null : "1g.18gb", ns, pod, "main", utilization, "GR_ENGINE_ACTIVE",
                1024.0, 80_000.0, 90.0);
    }
}
