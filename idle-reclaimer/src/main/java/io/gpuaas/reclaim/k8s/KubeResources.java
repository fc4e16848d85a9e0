package io.gpuaas.reclaim.k8s;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.gpuaas.kube.kserve.v1beta1.InferenceService;
import io.gpuaas.kube.ray.v1.RayCluster;
import io.gpuaas.reclaim.model.Owner;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The kinds the reclaimer scales, as kube-models' typed classes (group, version and plural come from their CRDs),
 * and the labels and annotations it reads or writes on them.
 */
public final class KubeResources {

    public static final String RECLAIMED_STATE = "gpuaas.io/reclaimed-state";
    public static final String RESUME = "gpuaas.io/resume";
    public static final String RESUMED_AT = "gpuaas.io/resumed-at";
    public static final String KUEUE_QUEUE_LABEL = "kueue.x-k8s.io/queue-name";
    public static final String KUEUE_ELASTIC = "kueue.x-k8s.io/elastic-job";
    public static final String KSERVE_DEPLOYMENT_MODE = "serving.kserve.io/deploymentMode";
    public static final String KSERVE_STOP = "serving.kserve.io/stop";

    private KubeResources() {}

    /** The typed class of a kind as a {@code WorkloadRef} names it. */
    public static Class<? extends HasMetadata> type(String kind) {
        return switch (kind) {
            case Owner.RAY_CLUSTER -> RayCluster.class;
            case Owner.INFERENCE_SERVICE -> InferenceService.class;
            default -> throw new IllegalArgumentException("not a reclaimable kind: " + kind);
        };
    }

    public static Map<String, String> annotations(HasMetadata resource) {
        Map<String, String> a = resource.getMetadata().getAnnotations();
        return a == null ? Map.of() : a;
    }

    public static Map<String, String> labels(HasMetadata resource) {
        Map<String, String> l = resource.getMetadata().getLabels();
        return l == null ? Map.of() : l;
    }

    /** Mutable annotations of the object, created when absent. */
    public static Map<String, String> mutableAnnotations(HasMetadata resource) {
        if (resource.getMetadata().getAnnotations() == null) {
            resource.getMetadata().setAnnotations(new LinkedHashMap<>());
        }
        return resource.getMetadata().getAnnotations();
    }
}
