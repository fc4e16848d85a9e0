package io.gpuaas.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Values just inside and just outside every constraint a schema declares on its properties (top-level or of one
 * definition), generated from the schema itself: a decoder that checks bounds by hand is tested against whatever the
 * schema says today.
 */
public final class SchemaBoundaries {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    /** One value for one property, and whether the schema allows it. */
    public record Case(String property, JsonNode value, boolean allowed) {
        @Override
        public String toString() {
            return property + "=" + value + (allowed ? " (allowed)" : " (out of range)");
        }
    }

    private SchemaBoundaries() {}

    /** The cases of every top-level property of the schema of {@code ceType}. */
    public static List<Case> of(String ceType) {
        return of(EventSchemas.document(ceType));
    }

    /** The cases of every property of the definition {@code name} ({@code $defs/<name>}) in the schema of a type. */
    public static List<Case> ofDefinition(String ceType, String name) {
        return of(EventSchemas.document(ceType).path("$defs").path(name));
    }

    private static List<Case> of(JsonNode object) {
        List<Case> cases = new ArrayList<>();
        Iterator<Map.Entry<String, JsonNode>> properties =
                object.path("properties").fields();
        properties.forEachRemaining(p -> cases.addAll(of(p.getKey(), p.getValue())));
        return cases;
    }

    private static List<Case> of(String name, JsonNode p) {
        List<Case> cases = new ArrayList<>();
        if (p.has("minimum")) {
            double min = p.get("minimum").asDouble();
            cases.add(new Case(name, JSON.numberNode(min), true));
            cases.add(new Case(name, JSON.numberNode(min - 0.001), false));
            cases.add(new Case(name, JSON.numberNode(min - 5), false));
        }
        if (p.has("maximum")) {
            double max = p.get("maximum").asDouble();
            cases.add(new Case(name, JSON.numberNode(max), true));
            cases.add(new Case(name, JSON.numberNode(max + 0.001), false));
            cases.add(new Case(name, JSON.numberNode(max + 5), false));
        }
        if (p.has("exclusiveMinimum")) {
            double min = p.get("exclusiveMinimum").asDouble();
            cases.add(new Case(name, JSON.numberNode(min), false));
            cases.add(new Case(name, JSON.numberNode(min + 0.001), true));
        }
        if (p.has("exclusiveMaximum")) {
            double max = p.get("exclusiveMaximum").asDouble();
            cases.add(new Case(name, JSON.numberNode(max), false));
            cases.add(new Case(name, JSON.numberNode(max - 0.001), true));
        }
        if (p.has("enum")) {
            p.get("enum").forEach(option -> cases.add(new Case(name, option, true)));
            String first = p.get("enum").get(0).asText();
            cases.add(new Case(name, JSON.textNode(first.toLowerCase()), false));
            cases.add(new Case(name, JSON.textNode("NOT_" + first), false));
        }
        if (p.has("minLength")) {
            int min = p.get("minLength").asInt();
            cases.add(new Case(name, JSON.textNode("x".repeat(min)), true));
            cases.add(new Case(name, JSON.textNode("x".repeat(min - 1)), false));
        }
        if (p.has("maxLength")) {
            int max = p.get("maxLength").asInt();
            cases.add(new Case(name, JSON.textNode("x".repeat(max)), true));
            cases.add(new Case(name, JSON.textNode("x".repeat(max + 1)), false));
        }
        return cases;
    }
}
