package io.gpuaas.deploy;

import java.util.List;
import java.util.Map;

/** A Kubernetes label selector ({@code matchLabels} and {@code matchExpressions}) applied to a pod's labels. */
final class LabelSelector {

    private LabelSelector() {}

    /** Whether {@code selector} selects {@code labels}; an empty selector selects every pod, as Kubernetes does. */
    static boolean matches(Map<String, Object> selector, Map<String, ?> labels) {
        boolean byLabels = Yaml.map(selector, "matchLabels").entrySet().stream()
                .allMatch(e -> String.valueOf(e.getValue()).equals(String.valueOf(labels.get(e.getKey()))));
        return byLabels && Yaml.list(selector, "matchExpressions").stream().allMatch(e -> satisfies(e, labels));
    }

    private static boolean satisfies(Map<String, Object> expression, Map<String, ?> labels) {
        String key = String.valueOf(expression.get("key"));
        Object value = labels.get(key);
        List<?> values = expression.get("values") instanceof List<?> l ? l : List.of();
        return switch (String.valueOf(expression.get("operator"))) {
            case "In" -> value != null && values.contains(String.valueOf(value));
            case "NotIn" -> value == null || !values.contains(String.valueOf(value));
            case "Exists" -> labels.containsKey(key);
            case "DoesNotExist" -> !labels.containsKey(key);
            default -> throw new AssertionError("unknown selector operator in " + expression);
        };
    }
}
