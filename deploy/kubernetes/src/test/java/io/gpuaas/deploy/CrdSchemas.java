package io.gpuaas.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The upstream CustomResourceDefinitions of one API group, as JSON Schemas (2020-12) that reject what the API server
 * rejects structurally when {@code kubectl apply} validates strictly (its default): an apiVersion the CRD does not
 * serve, a field the schema does not declare, a missing required field, a wrong type, a value outside an enum,
 * below a minimum or not matching a pattern.
 *
 * <p>From OpenAPI v3 to JSON Schema: an object schema with {@code properties} gets {@code additionalProperties:
 * false} unless it carries {@code x-kubernetes-preserve-unknown-fields}; {@code nullable} adds {@code "null"} to the
 * type; {@code x-kubernetes-int-or-string} becomes integer-or-string. Not checked: the CEL rules of
 * {@code x-kubernetes-validations} (cross-field rules such as "valueFrom is required for jmxPrometheusExporter"),
 * {@code format}, list-type/map-keys uniqueness, and {@code metadata} beyond being an object.
 */
final class CrdSchemas {

    /** Where the upstream CRDs live: {@code -Dgpuaas.crds=<dir>}, else {@code ../shared/crds} beside the repo. */
    static Optional<Path> directory() {
        String configured = System.getProperty("gpuaas.crds");
        Path dir = configured != null && !configured.isBlank()
                ? Path.of(configured)
                : Rendering.repoRoot().resolve("../shared/crds").normalize();
        return Files.isDirectory(dir) ? Optional.of(dir) : Optional.empty();
    }

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);

    private final String group;
    private final Path source;
    /** kind → served version → schema. */
    private final Map<String, Map<String, JsonSchema>> kinds;

    private CrdSchemas(String group, Path source, Map<String, Map<String, JsonSchema>> kinds) {
        this.group = group;
        this.source = source;
        this.kinds = kinds;
    }

    /** Every CRD of {@code group} among the YAML files of {@code dir}. */
    static CrdSchemas load(Path dir, String group) {
        Map<String, Map<String, JsonSchema>> kinds = new TreeMap<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file :
                    files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                for (JsonNode crd : documents(file)) {
                    if ("CustomResourceDefinition".equals(crd.path("kind").asText())
                            && group.equals(crd.path("spec").path("group").asText())) {
                        kinds.put(crd.path("spec").path("names").path("kind").asText(), servedVersions(crd));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new CrdSchemas(group, dir, kinds);
    }

    String group() {
        return group;
    }

    /** What the API server would refuse in {@code object}; empty when it is valid. */
    List<String> problems(Map<String, Object> object) {
        return problems((JsonNode) YAML.valueToTree(object));
    }

    List<String> problems(JsonNode object) {
        String kind = object.path("kind").asText();
        String apiVersion = object.path("apiVersion").asText();
        Map<String, JsonSchema> versions = kinds.get(kind);
        if (versions == null) {
            return List.of("no CRD of kind " + kind + " in group " + group + " under " + source);
        }
        String version = apiVersion.startsWith(group + "/") ? apiVersion.substring(group.length() + 1) : null;
        JsonSchema schema = version == null ? null : versions.get(version);
        if (schema == null) {
            return List.of("apiVersion " + apiVersion + " is not served by the CRD of " + kind + " (served: "
                    + versions.keySet().stream().map(v -> group + "/" + v).toList() + ")");
        }
        return schema.validate(object).stream()
                .sorted(Comparator.comparing(ValidationMessage::getMessage))
                .map(ValidationMessage::getMessage)
                .toList();
    }

    private static List<JsonNode> documents(Path file) throws IOException {
        List<JsonNode> docs = new ArrayList<>();
        try (var parser = YAML.getFactory().createParser(file.toFile())) {
            var it = YAML.readValues(parser, JsonNode.class);
            while (it.hasNext()) {
                JsonNode doc = it.next();
                if (doc != null && doc.isObject()) {
                    docs.add(doc);
                }
            }
        }
        return docs;
    }

    private static Map<String, JsonSchema> servedVersions(JsonNode crd) {
        Map<String, JsonSchema> served = new TreeMap<>();
        for (JsonNode version : crd.path("spec").path("versions")) {
            if (version.path("served").asBoolean(false)) {
                JsonNode openApi = version.path("schema").path("openAPIV3Schema");
                served.put(version.path("name").asText(), FACTORY.getSchema(toJsonSchema(openApi.deepCopy())));
            }
        }
        return served;
    }

    /** Rewrites a structural OpenAPI v3 schema in place into the JSON Schema the API server effectively applies. */
    static JsonNode toJsonSchema(JsonNode node) {
        if (!(node instanceof ObjectNode schema)) {
            return node;
        }
        boolean preserveUnknown =
                schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
        if (schema.path("x-kubernetes-int-or-string").asBoolean(false)) {
            schema.remove("type");
            ArrayNode anyOf = JsonNodeFactory.instance.arrayNode();
            anyOf.addObject().put("type", "integer");
            anyOf.addObject().put("type", "string");
            schema.set("anyOf", anyOf);
        }
        if (schema.path("nullable").asBoolean(false) && schema.path("type").isTextual()) {
            ArrayNode types = JsonNodeFactory.instance
                    .arrayNode()
                    .add(schema.path("type").asText())
                    .add("null");
            schema.set("type", types);
        }
        schema.remove("nullable");
        schema.remove("format");
        schema.remove("description");
        List<String> extensions = new ArrayList<>();
        schema.fieldNames().forEachRemaining(f -> {
            if (f.startsWith("x-kubernetes-")) {
                extensions.add(f);
            }
        });
        schema.remove(extensions);
        schema.path("properties").forEach(CrdSchemas::toJsonSchema);
        toJsonSchema(schema.get("items"));
        toJsonSchema(schema.get("additionalProperties"));
        for (String combinator : List.of("allOf", "anyOf", "oneOf")) {
            schema.path(combinator).forEach(CrdSchemas::toJsonSchema);
        }
        toJsonSchema(schema.get("not"));
        if ("object".equals(schema.path("type").asText())
                && schema.has("properties")
                && !preserveUnknown
                && !schema.has("additionalProperties")) {
            // The API server drops (and kubectl's strict validation rejects) fields a structural schema lacks.
            schema.put("additionalProperties", false);
        }
        return schema;
    }
}
