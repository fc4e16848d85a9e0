package io.gpuaas.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class EventSchemasTest {

    static Stream<Arguments> everyType() {
        Map<Class<?>, Object> samples = EventSamples.all();
        return EventTypes.all().entrySet().stream().map(e -> Arguments.of(e.getKey(), samples.get(e.getValue())));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyType")
    void shouldValidateTheJsonEveryTypeProducesWhenCheckedAgainstItsSchema(String ceType, Object sample) {
        JsonNode json = Json.mapper().valueToTree(sample);
        assertThat(EventSchemas.violations(ceType, json)).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyType")
    void shouldDescribeEveryRecordComponentWhenASreReadsTheSchema(String ceType, Object sample) {
        JsonNode schema = EventSchemas.document(ceType);
        assertThat(schema.path("$schema").asText()).isEqualTo("https://json-schema.org/draft/2020-12/schema");
        assertThat(schema.path("description").asText()).contains(ceType);
        List<String> undocumented = new ArrayList<>();
        collectUndocumented(schema, schema, sample.getClass(), "", undocumented);
        assertThat(undocumented).isEmpty();
    }

    @Test
    void shouldShipExactlyOneSchemaPerTypeWhenTheModuleIsBuilt() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("src/main/resources/schemas"))) {
            List<String> shipped = files.map(p -> p.getFileName().toString().replaceFirst("\\.json$", ""))
                    .toList();
            assertThat(shipped)
                    .containsExactlyInAnyOrderElementsOf(EventTypes.all().keySet());
        }
    }

    @Test
    void shouldReportEveryProblemWhenABodyIsWrongInSeveralPlaces() {
        JsonNode bad = Json.mapper()
                .createObjectNode()
                .put("node", 7)
                .set(
                        "devices",
                        Json.mapper()
                                .createArrayNode()
                                .add(Json.mapper().createObjectNode().put("utilizationSource", "NVML")));
        assertThat(EventSchemas.violations("io.gpuaas.gpu.scrape.v1", bad))
                .anySatisfy(v -> assertThat(v).contains("time"))
                .anySatisfy(v -> assertThat(v).contains("uuid"))
                .anySatisfy(v -> assertThat(v).contains("node"))
                .anySatisfy(v -> assertThat(v).contains("utilizationSource"));
    }

    /** Walks record components and the matching schema properties (following local $refs) in step. */
    private static void collectUndocumented(
            JsonNode root, JsonNode schema, Class<?> type, String path, List<String> out) {
        JsonNode resolved = resolve(root, schema);
        for (RecordComponent component : type.getRecordComponents()) {
            String where = path + "/" + component.getName();
            JsonNode property = resolved.path("properties").path(component.getName());
            if (property.isMissingNode()) {
                out.add(where + " missing");
                continue;
            }
            if (property.path("description").asText().isBlank()) {
                out.add(where + " has no description");
            }
            Class<?> nested = recordTypeOf(component.getGenericType());
            if (nested != null) {
                JsonNode items = property.has("items") ? property.path("items") : property;
                JsonNode target = items.has("anyOf") ? items.path("anyOf").path(0) : items;
                collectUndocumented(root, target, nested, where, out);
            }
        }
    }

    private static JsonNode resolve(JsonNode root, JsonNode schema) {
        String ref = schema.path("$ref").asText("");
        return ref.startsWith("#/") ? root.at(ref.substring(1)) : schema;
    }

    private static Class<?> recordTypeOf(Type type) {
        if (type instanceof Class<?> c) {
            return c.isRecord() ? c : null;
        }
        if (type instanceof ParameterizedType p && p.getRawType() == List.class) {
            return recordTypeOf(p.getActualTypeArguments()[0]);
        }
        return null;
    }
}
