package io.gpuaas.events.gpu;

import static io.gpuaas.events.gpu.GpuSampleCases.TYPE;
import static io.gpuaas.events.gpu.GpuSampleCases.typed;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpuaas.events.CloudEventDeserializer;
import io.gpuaas.events.EventSchemas;
import io.gpuaas.events.EventSerdes;
import io.gpuaas.events.Json;
import io.gpuaas.events.SchemaBoundaries;
import io.gpuaas.events.SchemaValidation;
import io.gpuaas.events.Topics;
import java.io.IOException;
import java.util.stream.Stream;
import org.apache.kafka.common.serialization.Deserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The fast reader checks the schema's bounds by hand; these tests read the bounds from the shipped schema, put a
 * value on and just past each one, and hold that the full schema, the generic reader's constraint check
 * ({@link SchemaValidation#REQUIRED_FIELDS}) and the codec give the same verdict. A bound added to the schema and
 * not to {@link GpuSampleJsonReader} fails here.
 */
class GpuSampleCodecBoundsTest {

    private final Deserializer<GpuSampleEvent> generic = EventSerdes.valueDeserializer(
            Topics.GPU_SAMPLES, new CloudEventDeserializer<>(GpuSampleEvent.class, SchemaValidation.REQUIRED_FIELDS));
    private final Deserializer<GpuSampleEvent> codec = EventSerdes.valueDeserializer(Topics.GPU_SAMPLES);

    static Stream<SchemaBoundaries.Case> boundaries() {
        return SchemaBoundaries.of(TYPE).stream();
    }

    @Test
    void shouldFindABoundOnEveryValueTheReclaimerTrustsWhenTheSchemaIsRead() {
        assertThat(boundaries()
                        .filter(b -> !b.allowed())
                        .map(SchemaBoundaries.Case::property)
                        .distinct())
                .contains(
                        "utilization",
                        "utilizationSource",
                        "memoryUsedMiB",
                        "memoryFreeMiB",
                        "powerWatts",
                        "hostname",
                        "uuid");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("boundaries")
    void shouldGiveTheSchemasVerdictWhenAValueIsOnOrPastABound(SchemaBoundaries.Case boundary) throws IOException {
        byte[] body = body(boundary);

        assertThat(EventSchemas.violations(TYPE, Json.mapper().readTree(body)))
                .as("full schema")
                .hasSize(boundary.allowed() ? 0 : 1);
        Object expected = GpuSampleCodecReaderTest.outcome(generic, typed(TYPE), body);
        assertThat(expected)
                .as("generic reader")
                .asString()
                .startsWith(boundary.allowed() ? "GpuSample[" : "error SCHEMA_VIOLATION");
        assertThat(GpuSampleCodecReaderTest.outcome(codec, typed(TYPE), body))
                .as("codec")
                .isEqualTo(expected);
        assertThat(GpuSampleJsonReader.read(body))
                .as("fast path reads it, or declines")
                .matches(read -> boundary.allowed() == (read != null));
    }

    /** A sample as producers write it (every property set), with one property replaced. */
    private static byte[] body(SchemaBoundaries.Case boundary) {
        ObjectNode json =
                Json.mapper().valueToTree(GpuSampleCases.golden().getFirst().sample());
        json.set(boundary.property(), boundary.value());
        try {
            return Json.mapper().writeValueAsBytes(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
