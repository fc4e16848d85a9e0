package io.gpuaas.local.model;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Reads nested values out of the untyped maps of generic Kubernetes resources without a cast at every step. */
public final class Nested {

    private Nested() {
    }

    /** The value at {@code path} (map keys), if every step exists. */
    public static Optional<Object> get(Object root, String... path) {
        Object current = root;
        for (String key : path) {
            if (!(current instanceof Map<?, ?> map)) {
                return Optional.empty();
            }
            current = map.get(key);
        }
        return Optional.ofNullable(current);
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> map(Object root, String... path) {
        return get(root, path).filter(Map.class::isInstance).map(v -> (Map<String, Object>) v).orElse(Map.of());
    }

    @SuppressWarnings("unchecked")
    public static List<Object> list(Object root, String... path) {
        return get(root, path).filter(List.class::isInstance).map(v -> (List<Object>) v).orElse(List.of());
    }

    public static Optional<String> string(Object root, String... path) {
        return get(root, path).map(Object::toString);
    }

    public static Optional<Integer> integer(Object root, String... path) {
        return get(root, path).map(v -> v instanceof Number n ? n.intValue() : Integer.parseInt(v.toString()));
    }

    public static boolean bool(Object root, String... path) {
        return get(root, path).map(v -> Boolean.parseBoolean(v.toString())).orElse(false);
    }
}
