package io.gpuaas.reclaim.k8s;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The custom resources the reclaimer touches, and small helpers for their untyped specs. */
public final class KubeResources {

    public static final ResourceDefinitionContext RAY_CLUSTER = new ResourceDefinitionContext.Builder()
            .withGroup("ray.io").withVersion("v1").withKind("RayCluster").withPlural("rayclusters")
            .withNamespaced(true).build();
    public static final ResourceDefinitionContext INFERENCE_SERVICE = new ResourceDefinitionContext.Builder()
            .withGroup("serving.kserve.io").withVersion("v1beta1").withKind("InferenceService")
            .withPlural("inferenceservices").withNamespaced(true).build();

    public static final String RECLAIMED_STATE = "gpuaas.io/reclaimed-state";
    public static final String RESUME = "gpuaas.io/resume";
    public static final String RESUMED_AT = "gpuaas.io/resumed-at";
    public static final String TENANT_LABEL = "gpuaas.io/tenant";
    public static final String KUEUE_QUEUE_LABEL = "kueue.x-k8s.io/queue-name";
    public static final String KUEUE_ELASTIC = "kueue.x-k8s.io/elastic-job";
    public static final String KSERVE_DEPLOYMENT_MODE = "serving.kserve.io/deploymentMode";
    public static final String KSERVE_STOP = "serving.kserve.io/stop";

    private KubeResources() {
    }

    public static ResourceDefinitionContext context(String kind) {
        return switch (kind) {
            case "RayCluster" -> RAY_CLUSTER;
            case "InferenceService" -> INFERENCE_SERVICE;
            default -> throw new IllegalArgumentException("not a reclaimable kind: " + kind);
        };
    }

    /** The object's {@code spec}, created when absent so a plan can write into it. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> spec(GenericKubernetesResource resource) {
        return (Map<String, Object>) resource.getAdditionalProperties()
                .computeIfAbsent("spec", k -> new LinkedHashMap<String, Object>());
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> child(Map<String, Object> parent, String key) {
        Object value = parent.get(key);
        return value instanceof Map<?, ?> map ? (Map<String, Object>) map : null;
    }

    @SuppressWarnings("unchecked")
    public static List<Map<String, Object>> list(Map<String, Object> parent, String key) {
        Object value = parent.get(key);
        if (!(value instanceof List<?> items)) {
            return List.of();
        }
        List<Map<String, Object>> maps = new ArrayList<>();
        for (Object item : items) {
            if (item instanceof Map<?, ?> m) {
                maps.add((Map<String, Object>) m);
            }
        }
        return maps;
    }

    public static Integer integer(Map<String, Object> map, String key) {
        return map != null && map.get(key) instanceof Number n ? n.intValue() : null;
    }

    public static void putOrRemove(Map<String, Object> map, String key, Object value) {
        if (value == null) {
            map.remove(key);
        } else {
            map.put(key, value);
        }
    }

    public static Map<String, String> annotations(GenericKubernetesResource resource) {
        Map<String, String> a = resource.getMetadata().getAnnotations();
        return a == null ? Map.of() : a;
    }

    public static Map<String, String> labels(GenericKubernetesResource resource) {
        Map<String, String> l = resource.getMetadata().getLabels();
        return l == null ? Map.of() : l;
    }

    /** Mutable annotations of the object, created when absent. */
    public static Map<String, String> mutableAnnotations(GenericKubernetesResource resource) {
        if (resource.getMetadata().getAnnotations() == null) {
            resource.getMetadata().setAnnotations(new LinkedHashMap<>());
        }
        return resource.getMetadata().getAnnotations();
    }
}
