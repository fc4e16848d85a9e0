package io.gpuaas.quota.k8s;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.List;
import java.util.Map;

/** Null-safe navigation of the untyped JSON of a {@link GenericKubernetesResource}. */
final class Fields {

    private Fields() {
    }

    static Object at(GenericKubernetesResource object, String... path) {
        Object node = object.getAdditionalProperties();
        for (String step : path) {
            if (!(node instanceof Map<?, ?> map)) {
                return null;
            }
            node = map.get(step);
        }
        return node;
    }

    static String string(Object node, String key) {
        Object value = node instanceof Map<?, ?> map ? map.get(key) : null;
        return value == null ? null : value.toString();
    }

    static Map<?, ?> map(Object node) {
        return node instanceof Map<?, ?> map ? map : Map.of();
    }

    static Map<?, ?> map(Object node, String key) {
        return map(node instanceof Map<?, ?> m ? m.get(key) : null);
    }

    static List<Map<?, ?>> maps(Object node) {
        if (!(node instanceof List<?> items)) {
            return List.of();
        }
        return items.stream().filter(Map.class::isInstance).<Map<?, ?>>map(Map.class::cast).toList();
    }

    static int integer(Object node, String key, int otherwise) {
        Object value = node instanceof Map<?, ?> map ? map.get(key) : null;
        return value instanceof Number n ? n.intValue() : value == null ? otherwise : Integer.parseInt(value.toString());
    }
}
