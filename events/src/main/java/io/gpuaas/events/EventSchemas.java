package io.gpuaas.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The JSON Schemas (draft 2020-12) shipped in this module, one per CloudEvents type at
 * {@code /schemas/<ce_type>.json}. Schemas are parsed once and cached; validation is thread-safe.
 */
public final class EventSchemas {

    private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
    private static final SchemaValidatorsConfig CONFIG =
            SchemaValidatorsConfig.builder().formatAssertionsEnabled(true).build();
    private static final Map<String, JsonSchema> SCHEMAS = new ConcurrentHashMap<>();
    private static final Map<String, List<String>> REQUIRED = new ConcurrentHashMap<>();

    private EventSchemas() {}

    /** The classpath resource of the schema of {@code ceType}. */
    public static String resource(String ceType) {
        return "/schemas/" + ceType + ".json";
    }

    /** The schema document of {@code ceType} as JSON. */
    public static JsonNode document(String ceType) {
        try (InputStream in = EventSchemas.class.getResourceAsStream(resource(ceType))) {
            if (in == null) {
                throw new IllegalArgumentException("no schema shipped for " + ceType);
            }
            return Json.mapper().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read schema of " + ceType, e);
        }
    }

    /**
     * The violations of {@code json} against the schema of {@code ceType}, as {@code location: message} lines
     * sorted by location; empty when valid.
     */
    public static List<String> violations(String ceType, JsonNode json) {
        JsonSchema schema = SCHEMAS.computeIfAbsent(ceType, t -> FACTORY.getSchema(document(t), CONFIG));
        List<String> out = new ArrayList<>();
        for (ValidationMessage message : schema.validate(json)) {
            out.add(message.getMessage());
        }
        out.sort(Comparator.naturalOrder());
        return out;
    }

    /** The top-level {@code required} property names of the schema of {@code ceType}. */
    public static List<String> required(String ceType) {
        return REQUIRED.computeIfAbsent(ceType, t -> {
            List<String> names = new ArrayList<>();
            document(t).path("required").forEach(n -> names.add(n.asText()));
            return List.copyOf(names);
        });
    }
}
