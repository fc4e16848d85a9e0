package io.gpuaas.deploy;

import java.util.List;
import java.util.Map;

/** Null-safe navigation of parsed YAML maps. */
final class Yaml {

    private Yaml() {}

    /** The value at {@code path} (map keys), or null when any step is missing. */
    static Object at(Object root, String... path) {
        Object current = root;
        for (String key : path) {
            if (!(current instanceof Map<?, ?> map)) {
                return null;
            }
            current = map.get(key);
        }
        return current;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object root, String... path) {
        Object v = at(root, path);
        return v instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> list(Object root, String... path) {
        Object v = at(root, path);
        return v instanceof List<?> l ? (List<Map<String, Object>>) l : List.of();
    }

    static String string(Object root, String... path) {
        Object v = at(root, path);
        return v == null ? null : v.toString();
    }
}
