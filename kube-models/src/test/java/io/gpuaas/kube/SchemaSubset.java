package io.gpuaas.kube;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Whether a minimal OpenAPI v3 schema (ours) is a faithful subset of a full one (upstream's): every field ours
 * declares exists upstream under the same path with the same type ({@code type}, {@code format}, int-or-string,
 * map values, list items, enum values within upstream's), and every object ours declares lists exactly
 * upstream's required fields. Not compared: descriptions, defaults, validations, list types and
 * {@code x-kubernetes-preserve-unknown-fields} (ours keeps unknown fields on purpose where upstream declares them).
 */
final class SchemaSubset {

    private static final String INT_OR_STRING = "x-kubernetes-int-or-string";

    private SchemaSubset() {}

    /** What in {@code ours} does not match {@code upstream}, one line per field; empty when it is a subset. */
    static List<String> problems(JsonNode ours, JsonNode upstream) {
        List<String> problems = new ArrayList<>();
        compare("", ours, upstream, problems);
        return problems;
    }

    private static void compare(String path, JsonNode ours, JsonNode upstream, List<String> problems) {
        String at = path.isEmpty() ? "<root>" : path;
        String ourType = type(ours);
        String theirType = type(upstream);
        if (!ourType.equals(theirType)) {
            problems.add(at + ": type " + ourType + ", upstream " + theirType);
            return;
        }
        if (ours.has("format") && !ours.path("format").equals(upstream.path("format"))) {
            problems.add(at + ": format " + ours.path("format").asText() + ", upstream "
                    + upstream.path("format").asText("none"));
        }
        enumValues(at, ours, upstream, problems);
        required(at, ours, upstream, problems);
        ours.path("properties").properties().forEach(field -> {
            String child = path + "." + field.getKey();
            JsonNode theirs = upstream.path("properties").get(field.getKey());
            if (theirs == null) {
                problems.add(child + ": not in upstream");
            } else {
                compare(child, field.getValue(), theirs, problems);
            }
        });
        nested(path + "[]", ours.get("items"), upstream.get("items"), problems);
        nested(path + "{}", ours.get("additionalProperties"), upstream.get("additionalProperties"), problems);
    }

    private static void nested(String path, JsonNode ours, JsonNode upstream, List<String> problems) {
        if (ours == null || !ours.isObject()) {
            return;
        }
        if (upstream == null || !upstream.isObject()) {
            problems.add(path + ": upstream has no such " + (path.endsWith("[]") ? "items" : "map values"));
            return;
        }
        compare(path, ours, upstream, problems);
    }

    /** The type as the API server reads it: int-or-string stands for its own type. */
    private static String type(JsonNode schema) {
        return schema.path(INT_OR_STRING).asBoolean(false)
                ? "int-or-string"
                : schema.path("type").asText("none");
    }

    private static void enumValues(String at, JsonNode ours, JsonNode upstream, List<String> problems) {
        Set<String> allowed = strings(upstream.path("enum"));
        for (String value : strings(ours.path("enum"))) {
            if (!upstream.has("enum") || !allowed.contains(value)) {
                problems.add(at + ": enum value " + value + " not allowed upstream " + allowed);
            }
        }
    }

    private static void required(String at, JsonNode ours, JsonNode upstream, List<String> problems) {
        Set<String> mine = strings(ours.path("required"));
        Set<String> theirs = strings(upstream.path("required"));
        if (!mine.equals(theirs)) {
            problems.add(at + ": required " + mine + ", upstream " + theirs);
        }
        for (String field : theirs) {
            if (!ours.path("properties").has(field)) {
                problems.add(at + "." + field + ": required upstream but not declared");
            }
        }
    }

    private static Set<String> strings(JsonNode array) {
        Set<String> values = new TreeSet<>();
        array.forEach(v -> values.add(v.asText()));
        return values;
    }
}
