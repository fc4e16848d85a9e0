package io.gpuaas.local.model;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.gpuaas.kube.kserve.v1beta1.InferenceService;
import io.gpuaas.kube.kserve.v1beta1.InferenceServiceSpec;
import io.gpuaas.kube.kserve.v1beta1.inferenceservicespec.Predictor;
import io.gpuaas.kube.kserve.v1beta1.inferenceservicespec.predictor.Model;
import io.gpuaas.kube.ray.v1.RayCluster;
import io.gpuaas.kube.ray.v1.RayClusterSpec;
import io.gpuaas.kube.ray.v1.rayclusterspec.WorkerGroupSpecs;
import io.gpuaas.local.model.WorkloadOwner.PodTemplate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * Turns RayClusters and InferenceServices into {@link WorkloadOwner}s: pod sets as Kueue's integrations derive
 * them (a {@code head} set plus one per worker group; one {@code predictor} set), replica counts as KubeRay and
 * KServe read them.
 */
public final class OwnerReader {

    public static final String QUEUE_LABEL = "kueue.x-k8s.io/queue-name";
    public static final String ELASTIC_LABEL = "kueue.x-k8s.io/elastic-job";
    /** The job label naming a Kueue WorkloadPriorityClass. */
    public static final String PRIORITY_CLASS_LABEL = "kueue.x-k8s.io/priority-class";

    public static final String KSERVE_STOP = "serving.kserve.io/stop";
    /** Accelerators: what bookings and simulated devices are about (the Kueue stand-in counts cpu and memory too). */
    public static final String ACCELERATOR_PREFIX = "nvidia.com/";

    private OwnerReader() {}

    public static WorkloadOwner rayCluster(RayCluster cluster) {
        RayClusterSpec spec = Optional.ofNullable(cluster.getSpec()).orElseGet(RayClusterSpec::new);
        List<PodSetDemand> podSets = new ArrayList<>();
        Map<String, PodTemplate> templates = new LinkedHashMap<>();
        PodTemplateSpec headTemplate =
                spec.getHeadGroupSpec() == null ? null : spec.getHeadGroupSpec().getTemplate();
        PodTemplate head = template(headTemplate, "ray-head");
        podSets.add(new PodSetDemand("head", 1, accelerators(head)));
        templates.put("head", head);
        List<String> workersToDelete = new ArrayList<>();
        for (WorkerGroupSpecs group : listOf(spec.getWorkerGroupSpecs())) {
            String name = Objects.requireNonNullElse(group.getGroupName(), "workers");
            int replicas = Objects.requireNonNullElse(
                    group.getReplicas(), Objects.requireNonNullElse(group.getMinReplicas(), 0));
            PodTemplate worker = template(group.getTemplate(), "ray-worker");
            podSets.add(new PodSetDemand(name, Math.max(0, replicas), accelerators(worker)));
            templates.put(name, worker);
            if (group.getScaleStrategy() != null) {
                workersToDelete.addAll(listOf(group.getScaleStrategy().getWorkersToDelete()));
            }
        }
        return owner(
                cluster,
                WorkloadOwner.RAY_CLUSTER,
                Boolean.TRUE.equals(spec.getSuspend()),
                podSets,
                templates,
                workersToDelete);
    }

    public static WorkloadOwner inferenceService(InferenceService service) {
        Predictor predictor = Optional.ofNullable(service.getSpec())
                .map(InferenceServiceSpec::getPredictor)
                .orElseGet(Predictor::new);
        Model model = predictor.getModel();
        Optional<Container> container =
                model == null ? listOf(predictor.getContainers()).stream().findFirst() : Optional.empty();
        String image = model != null
                ? model.getImage()
                : container.map(Container::getImage).orElse(null);
        ResourceRequirements resources = model != null
                ? model.getResources()
                : container.map(Container::getResources).orElse(null);
        PodTemplate template = new PodTemplate(
                "kserve-container",
                Objects.requireNonNullElse(image, "kserve/huggingfaceserver:v0.15.0"),
                quantities(resources, ResourceRequirements::getRequests),
                quantities(resources, ResourceRequirements::getLimits));
        boolean stopped = "true".equals(annotations(service).get(KSERVE_STOP));
        int replicas = stopped ? 0 : Objects.requireNonNullElse(predictor.getMinReplicas(), 1);
        List<PodSetDemand> podSets = List.of(new PodSetDemand("predictor", replicas, accelerators(template)));
        return owner(
                service, WorkloadOwner.INFERENCE_SERVICE, false, podSets, Map.of("predictor", template), List.of());
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
            return new Quantity(quantity).getNumericalAmount().longValue();
        }
    }

    private static WorkloadOwner owner(
            HasMetadata resource,
            String kind,
            boolean suspended,
            List<PodSetDemand> podSets,
            Map<String, PodTemplate> templates,
            List<String> workersToDelete) {
        Map<String, String> labels = resource.getMetadata().getLabels() == null
                ? Map.of()
                : resource.getMetadata().getLabels();
        return new WorkloadOwner(
                kind,
                resource.getApiVersion(),
                resource.getMetadata().getNamespace(),
                resource.getMetadata().getName(),
                resource.getMetadata().getUid(),
                Optional.ofNullable(labels.get(QUEUE_LABEL)).filter(q -> !q.isBlank()),
                Optional.ofNullable(labels.get(PRIORITY_CLASS_LABEL)).filter(p -> !p.isBlank()),
                "true".equals(labels.get(ELASTIC_LABEL)),
                suspended,
                podSets,
                templates,
                annotations(resource),
                workersToDelete);
    }

    private static Map<String, String> annotations(HasMetadata resource) {
        Map<String, String> annotations = resource.getMetadata().getAnnotations();
        return annotations == null ? Map.of() : Map.copyOf(annotations);
    }

    private static PodTemplate template(PodTemplateSpec podTemplate, String defaultName) {
        Optional<Container> container = Optional.ofNullable(podTemplate)
                .map(PodTemplateSpec::getSpec)
                .flatMap(spec -> listOf(spec.getContainers()).stream().findFirst());
        ResourceRequirements resources = container.map(Container::getResources).orElse(null);
        return new PodTemplate(
                container.map(Container::getName).orElse(defaultName),
                container.map(Container::getImage).orElse("rayproject/ray:2.49.0-gpu"),
                quantities(resources, ResourceRequirements::getRequests),
                quantities(resources, ResourceRequirements::getLimits));
    }

    private static Map<String, String> quantities(
            ResourceRequirements resources, Function<ResourceRequirements, Map<String, Quantity>> field) {
        Map<String, String> result = new LinkedHashMap<>();
        if (resources != null && field.apply(resources) != null) {
            field.apply(resources).forEach((k, v) -> result.put(k, v.toString()));
        }
        return result;
    }

    private static <T> List<T> listOf(List<T> list) {
        return list == null ? List.of() : list;
    }
}
