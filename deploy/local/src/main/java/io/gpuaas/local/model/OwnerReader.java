package io.gpuaas.local.model;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.gpuaas.local.model.WorkloadOwner.PodTemplate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Turns RayClusters and InferenceServices into {@link WorkloadOwner}s: pod sets as Kueue's integrations derive
 * them (a {@code head} set plus one per worker group; one {@code predictor} set), replica counts as KubeRay and
 * KServe read them.
 */
public final class OwnerReader {

    public static final String QUEUE_LABEL = "kueue.x-k8s.io/queue-name";
    public static final String ELASTIC_LABEL = "kueue.x-k8s.io/elastic-job";
    public static final String KSERVE_STOP = "serving.kserve.io/stop";
    /** Only accelerators count against gpuaas quota; CPU and memory are not in the ClusterQueues. */
    public static final String ACCELERATOR_PREFIX = "nvidia.com/";

    private OwnerReader() {
    }

    public static WorkloadOwner rayCluster(GenericKubernetesResource cluster) {
        Map<String, Object> spec = Nested.map(cluster.getAdditionalProperties(), "spec");
        List<PodSetDemand> podSets = new ArrayList<>();
        Map<String, PodTemplate> templates = new LinkedHashMap<>();
        PodTemplate head = template(Nested.map(spec, "headGroupSpec", "template"), "ray-head");
        podSets.add(new PodSetDemand("head", 1, accelerators(head)));
        templates.put("head", head);
        List<String> workersToDelete = new ArrayList<>();
        for (Object group : Nested.list(spec, "workerGroupSpecs")) {
            String name = Nested.string(group, "groupName").orElse("workers");
            int replicas = Nested.integer(group, "replicas").orElse(Nested.integer(group, "minReplicas").orElse(0));
            PodTemplate worker = template(Nested.map(group, "template"), "ray-worker");
            podSets.add(new PodSetDemand(name, Math.max(0, replicas), accelerators(worker)));
            templates.put(name, worker);
            Nested.list(group, "scaleStrategy", "workersToDelete").forEach(w -> workersToDelete.add(w.toString()));
        }
        return owner(cluster, WorkloadOwner.RAY_CLUSTER, Nested.bool(spec, "suspend"), podSets, templates, workersToDelete);
    }

    public static WorkloadOwner inferenceService(GenericKubernetesResource service) {
        Map<String, Object> predictor = Nested.map(service.getAdditionalProperties(), "spec", "predictor");
        Map<String, Object> model = Nested.map(predictor, "model");
        Map<String, Object> container = model.isEmpty()
                ? Nested.list(predictor, "containers").stream().findFirst().map(c -> Nested.map(c)).orElse(Map.of())
                : model;
        PodTemplate template = new PodTemplate("kserve-container",
                Nested.string(container, "image").orElse("kserve/huggingfaceserver:v0.15.0"),
                quantities(Nested.map(container, "resources", "requests")),
                quantities(Nested.map(container, "resources", "limits")));
        boolean stopped = "true".equals(annotations(service).get(KSERVE_STOP));
        int replicas = stopped ? 0 : Nested.integer(predictor, "minReplicas").orElse(1);
        List<PodSetDemand> podSets = List.of(new PodSetDemand("predictor", replicas, accelerators(template)));
        return owner(service, WorkloadOwner.INFERENCE_SERVICE, false, podSets, Map.of("predictor", template), List.of());
    }

    /** Accelerators one pod requests: requests where given, else limits (extended resources need them equal). */
    public static Map<String, Long> accelerators(PodTemplate template) {
        Map<String, Long> result = new LinkedHashMap<>();
        Map<String, String> source = new LinkedHashMap<>(template.limits());
        source.putAll(template.requests());
        source.forEach((resource, quantity) -> {
            if (resource.startsWith(ACCELERATOR_PREFIX)) {
                long units = units(quantity);
                if (units > 0) {
                    result.put(resource, units);
                }
            }
        });
        return result;
    }

    private static long units(String quantity) {
        try {
            return Long.parseLong(quantity.trim());
        } catch (NumberFormatException e) {
            return new io.fabric8.kubernetes.api.model.Quantity(quantity).getNumericalAmount().longValue();
        }
    }

    private static WorkloadOwner owner(GenericKubernetesResource resource, String kind, boolean suspended,
                                       List<PodSetDemand> podSets, Map<String, PodTemplate> templates,
                                       List<String> workersToDelete) {
        Map<String, String> labels = resource.getMetadata().getLabels() == null ? Map.of() : resource.getMetadata().getLabels();
        return new WorkloadOwner(kind, resource.getApiVersion(), resource.getMetadata().getNamespace(),
                resource.getMetadata().getName(), resource.getMetadata().getUid(),
                Optional.ofNullable(labels.get(QUEUE_LABEL)).filter(q -> !q.isBlank()),
                "true".equals(labels.get(ELASTIC_LABEL)), suspended, podSets, templates, annotations(resource),
                workersToDelete);
    }

    private static Map<String, String> annotations(GenericKubernetesResource resource) {
        Map<String, String> annotations = resource.getMetadata().getAnnotations();
        return annotations == null ? Map.of() : Map.copyOf(annotations);
    }

    private static PodTemplate template(Map<String, Object> podTemplate, String defaultName) {
        Map<String, Object> container = Nested.list(podTemplate, "spec", "containers").stream().findFirst()
                .map(c -> Nested.map(c)).orElse(Map.of());
        return new PodTemplate(Nested.string(container, "name").orElse(defaultName),
                Nested.string(container, "image").orElse("rayproject/ray:2.49.0-gpu"),
                quantities(Nested.map(container, "resources", "requests")),
                quantities(Nested.map(container, "resources", "limits")));
    }

    private static Map<String, String> quantities(Map<String, Object> raw) {
        Map<String, String> result = new LinkedHashMap<>();
        raw.forEach((k, v) -> result.put(k, String.valueOf(v)));
        return result;
    }
}
