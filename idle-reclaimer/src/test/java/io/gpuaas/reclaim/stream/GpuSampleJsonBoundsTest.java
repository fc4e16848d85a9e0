package io.gpuaas.reclaim.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpuaas.events.CloudEvents;
import io.gpuaas.events.EventDecodingException;
import io.gpuaas.events.EventSchemas;
import io.gpuaas.events.EventTypes;
import io.gpuaas.events.Json;
import io.gpuaas.events.gpu.GpuSample;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The fast reader checks the schema's bounds by hand; these tests read the bounds from the shipped schema, put a
 * value on and just past each one, and hold that the schema, the fast reader and the deserializer the stream uses
 * give the same verdict. A bound added to the schema and not to {@link GpuSampleJson} fails here.
 */
class GpuSampleJsonBoundsTest {

    private static final String TOPIC = "gpuaas.gpu-samples";
    private static final String TYPE = EventTypes.typeOf(GpuSample.class);
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    /** One value for one top-level property, and whether the schema allows it. */
    record Boundary(String property, JsonNode value, boolean allowed) {
        @Override
        public String toString() {
            return property + "=" + value + (allowed ? " (allowed)" : " (out of range)");
        }
    }

    static Stream<Boundary> boundaries() {
        List<Boundary> out = new ArrayList<>();
        EventSchemas.document(TYPE).path("properties").fields().forEachRemaining(p -> {
            String name = p.getKey();
            JsonNode schema = p.getValue();
            if (schema.has("minimum")) {
                double min = schema.get("minimum").asDouble();
                out.add(new Boundary(name, JSON.numberNode(min), true));
                out.add(new Boundary(name, JSON.numberNode(min - 0.001), false));
                out.add(new Boundary(name, JSON.numberNode(min - 5), false));
            }
            if (schema.has("maximum")) {
                double max = schema.get("maximum").asDouble();
                out.add(new Boundary(name, JSON.numberNode(max), true));
                out.add(new Boundary(name, JSON.numberNode(max + 0.001), false));
                out.add(new Boundary(name, JSON.numberNode(max + 5), false));
            }
            if (schema.has("enum")) {
                schema.get("enum").forEach(option -> out.add(new Boundary(name, option, true)));
                out.add(new Boundary(name, JSON.textNode("NOT_" + schema.get("enum").get(0).asText()), false));
            }
            if (schema.has("minLength")) {
                int min = schema.get("minLength").asInt();
                out.add(new Boundary(name, JSON.textNode("x".repeat(min)), true));
                out.add(new Boundary(name, JSON.textNode("x".repeat(min - 1)), false));
            }
            for (String other : List.of("exclusiveMinimum", "exclusiveMaximum", "maxLength", "pattern", "const")) {
                assertThat(schema.has(other)).as(name + " declares " + other + ": teach GpuSampleJson and this test")
                        .isFalse();
            }
        });
        return out.stream();
    }

    @Test
    void shouldFindABoundOnEveryValueTheReclaimerTrustsWhenTheSchemaIsRead() {
        assertThat(boundaries().filter(b -> !b.allowed()).map(Boundary::property).distinct())
                .contains("utilization", "utilizationSource", "memoryUsedMiB", "memoryFreeMiB", "powerWatts",
                        "hostname", "uuid");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("boundaries")
    void shouldGiveTheSchemaVerdictWhenAValueIsOnOrPastABound(Boundary boundary) {
        byte[] body = body(boundary);

        assertThat(EventSchemas.violations(TYPE, Json.mapper().valueToTree(parse(body)))).as("schema")
                .hasSize(boundary.allowed() ? 0 : 1);
        if (boundary.allowed()) {
            assertThat(GpuSampleJson.read(body)).as("fast path").isNotNull();
            assertThat(new GpuSampleDeserializer().deserialize(TOPIC, typed(), body)).isInstanceOf(GpuSample.class);
        } else {
            assertThat(GpuSampleJson.read(body)).as("fast path declines").isNull();
            assertThatThrownBy(() -> new GpuSampleDeserializer().deserialize(TOPIC, typed(), body))
                    .isInstanceOfSatisfying(EventDecodingException.class,
                            e -> assertThat(e.reason()).isEqualTo("SCHEMA_VIOLATION"));
        }
    }

    @Test
    void shouldRejectATombstoneWhenTheSamplesTopicIsNotCompacted() {
        assertThatThrownBy(() -> new GpuSampleDeserializer().deserialize(TOPIC, typed(), (byte[]) null))
                .isInstanceOfSatisfying(EventDecodingException.class,
                        e -> assertThat(e.reason()).isEqualTo("TOMBSTONE"));
    }

    /** A sample as producers write it (every property set), with one property replaced. */
    private static byte[] body(Boundary boundary) {
        GpuSample sample = GpuSampleDeserializerTest.golden().getFirst();
        ObjectNode json = Json.mapper().valueToTree(sample);
        json.set(boundary.property(), boundary.value());
        try {
            return Json.mapper().writeValueAsBytes(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode parse(byte[] body) {
        try {
            return Json.mapper().readTree(body);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Headers typed() {
        RecordHeaders headers = new RecordHeaders();
        headers.add(CloudEvents.TYPE, TYPE.getBytes(StandardCharsets.UTF_8));
        return headers;
    }
}
