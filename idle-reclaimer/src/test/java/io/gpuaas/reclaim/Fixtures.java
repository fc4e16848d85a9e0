package io.gpuaas.reclaim;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.gpuaas.events.Labels;
import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.kube.kserve.v1beta1.InferenceService;
import io.gpuaas.kube.kserve.v1beta1.InferenceServiceSpec;
import io.gpuaas.kube.kserve.v1beta1.inferenceservicespec.Predictor;
import io.gpuaas.kube.kserve.v1beta1.inferenceservicespec.predictor.Model;
import io.gpuaas.kube.kserve.v1beta1.inferenceservicespec.predictor.model.ModelFormat;
import io.gpuaas.kube.ray.v1.RayCluster;
import io.gpuaas.kube.ray.v1.RayClusterSpec;
import io.gpuaas.kube.ray.v1.rayclusterspec.HeadGroupSpec;
import io.gpuaas.kube.ray.v1.rayclusterspec.WorkerGroupSpecs;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Kubernetes objects and GPU samples shaped like the real ones (KubeRay, KServe, dcgm-exporter). */
public final class Fixtures {

    private Fixtures() {}

    public static Namespace namespace(String name, String tenant) {
        return new NamespaceBuilder()
                .withNewMetadata()
                .withName(name)
                .addToLabels(Labels.TENANT, tenant)
                .endMetadata()
                .build();
    }

    /** A worker group: name, replicas, minReplicas (null = absent). */
    public record Group(String name, int replicas, Integer minReplicas) {}

    public static RayCluster rayCluster(
            String ns, String name, boolean autoscaling, Map<String, String> labels, Group... groups) {
        List<WorkerGroupSpecs> workers = new ArrayList<>();
        for (Group g : groups) {
            WorkerGroupSpecs worker = new WorkerGroupSpecs();
            worker.setGroupName(g.name());
            worker.setReplicas(g.replicas());
            worker.setMinReplicas(g.minReplicas());
            worker.setMaxReplicas(8);
            worker.setTemplate(podTemplate("ray-worker"));
            workers.add(worker);
        }
        HeadGroupSpec head = new HeadGroupSpec();
        head.setTemplate(podTemplate("ray-head"));
        RayClusterSpec spec = new RayClusterSpec();
        spec.setEnableInTreeAutoscaling(autoscaling);
        spec.setHeadGroupSpec(head);
        spec.setWorkerGroupSpecs(workers);
        RayCluster cluster = new RayCluster();
        cluster.setMetadata(new ObjectMetaBuilder()
                .withNamespace(ns)
                .withName(name)
                .withLabels(labels)
                .build());
        cluster.setSpec(spec);
        return cluster;
    }

    /** The worker group {@code name} of a cluster. */
    public static WorkerGroupSpecs group(RayCluster cluster, String name) {
        return cluster.getSpec().getWorkerGroupSpecs().stream()
                .filter(g -> name.equals(g.getGroupName()))
                .findFirst()
                .orElseThrow();
    }

    public static InferenceService inferenceService(
            String ns, String name, Integer minReplicas, Map<String, String> annotations) {
        ModelFormat format = new ModelFormat();
        format.setName("huggingface");
        Model model = new Model();
        model.setModelFormat(format);
        model.setResources(new ResourceRequirementsBuilder()
                .addToLimits("nvidia.com/gpu", new Quantity("1"))
                .build());
        Predictor predictor = new Predictor();
        predictor.setMinReplicas(minReplicas);
        predictor.setModel(model);
        InferenceServiceSpec spec = new InferenceServiceSpec();
        spec.setPredictor(predictor);
        InferenceService isvc = new InferenceService();
        isvc.setMetadata(new ObjectMetaBuilder()
                .withNamespace(ns)
                .withName(name)
                .withAnnotations(annotations)
                .build());
        isvc.setSpec(spec);
        return isvc;
    }

    private static PodTemplateSpec podTemplate(String container) {
        return new PodTemplateSpecBuilder()
                .withNewSpec()
                .addNewContainer()
                .withName(container)
                .endContainer()
                .endSpec()
                .build();
    }

    /** A Ray worker pod asking for {@code gpus} full GPUs. */
    public static Pod rayWorker(String ns, String cluster, String group, String pod, int gpus) {
        return new PodBuilder()
                .withNewMetadata()
                .withNamespace(ns)
                .withName(pod)
                .addToLabels("ray.io/cluster", cluster)
                .addToLabels("ray.io/group", group)
                .addToLabels("ray.io/node-type", "worker")
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("ray-worker")
                .withImage("rayproject/ray")
                .withNewResources()
                .addToLimits("nvidia.com/gpu", new Quantity(Integer.toString(gpus)))
                .endResources()
                .endContainer()
                .endSpec()
                .build();
    }

    /** A KServe predictor pod asking for {@code count} of {@code resource} (nvidia.com/gpu or nvidia.com/mig-*). */
    public static Pod predictor(String ns, String isvc, String pod, String resource, int count) {
        return new PodBuilder()
                .withNewMetadata()
                .withNamespace(ns)
                .withName(pod)
                .addToLabels("serving.kserve.io/inferenceservice", isvc)
                .addToLabels("component", "predictor")
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("kserve-container")
                .withImage("vllm")
                .withNewResources()
                .addToLimits(resource, new Quantity(Integer.toString(count)))
                .endResources()
                .endContainer()
                .endSpec()
                .build();
    }

    /** A scrape of {@code host} holding one dcgm-exporter reading: a full GPU (gpuInstanceId null) or a MIG instance. */
    public static GpuScrape sample(
            String host, String uuid, String gpuInstanceId, String ns, String pod, Instant time, Double utilization) {
        return new GpuScrape(
                time,
                host,
                host + ":9400",
                List.of(new GpuScrape.Device(
                        uuid,
                        0,
                        "NVIDIA H200",
                        gpuInstanceId,
                        gpuInstanceId == null ? null : "1g.18gb",
                        "dcgm-exporter-" + host,
                        ns,
                        pod,
                        "main",
                        utilization,
                        "GR_ENGINE_ACTIVE",
                        1024.0,
                        80_000.0,
                        90.0)));
    }
}
