package io.gpuaas.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpuaas.events.gpu.GpuSample;
import io.gpuaas.events.gpu.GpuSampleEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.kafka.common.serialization.Deserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * gpu-samples is read with {@link SchemaValidation#REQUIRED_FIELDS} for speed (behind its codec's fast path, which
 * {@code GpuSampleCodecBoundsTest} holds to the same verdicts); these tests hold that the constraint check and the
 * full schema still give the same verdict on every bound the schema declares.
 */
class GpuSampleBoundsTest {

    static final String TYPE = EventTypes.typeOf(GpuSample.class);
    /** The constraint check itself: the topic's codec reads the usual shape without it. */
    final Deserializer<GpuSampleEvent> contract = EventSerdes.valueDeserializer(
            Topics.GPU_SAMPLES, new CloudEventDeserializer<>(GpuSampleEvent.class, SchemaValidation.REQUIRED_FIELDS));

    static Stream<SchemaBoundaries.Case> boundaries() {
        return SchemaBoundaries.of(TYPE).stream();
    }

    @Test
    void shouldCheckUtilizationMemoryPowerSourceAndIdentityWhenTheSchemaIsRead() {
        assertThat(boundaries()
                        .filter(c -> !c.allowed())
                        .map(SchemaBoundaries.Case::property)
                        .distinct())
                .containsExactlyInAnyOrder(
                        "hostname",
                        "uuid",
                        "utilization",
                        "utilizationSource",
                        "memoryUsedMiB",
                        "memoryFreeMiB",
                        "powerWatts");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("boundaries")
    void shouldAgreeWithTheFullSchemaWhenAValueIsOnOrPastABound(SchemaBoundaries.Case boundary) {
        JsonNode body = withValue(boundary);

        assertThat(EventSchemas.violations(TYPE, body)).as("full schema").hasSize(boundary.allowed() ? 0 : 1);
        if (boundary.allowed()) {
            assertThat(contract.deserialize("gpuaas.gpu-samples", EventSerdesTest.headers(TYPE), bytes(body)))
                    .isInstanceOf(GpuSample.class);
        } else {
            assertThatThrownBy(() ->
                            contract.deserialize("gpuaas.gpu-samples", EventSerdesTest.headers(TYPE), bytes(body)))
                    .isInstanceOfSatisfying(EventDecodingException.class, e -> {
                        assertThat(e.reason()).isEqualTo("SCHEMA_VIOLATION");
                        assertThat(e.getMessage()).contains(boundary.property());
                    });
        }
    }

    @Test
    void shouldDeclareOnlyConstraintsTheFastCheckUnderstandsWhenATopicSkipsFullValidation() {
        List<String> unchecked = new ArrayList<>();
        List<String> checked = new ArrayList<>();
        for (TopicSpec<?, ?> topic : Topics.all()) {
            CloudEventDeserializer<?> d = EventSerdesTest.genericReader(topic).orElse(null);
            if (d != null && d.validation() == SchemaValidation.REQUIRED_FIELDS) {
                checked.add(topic.baseName());
                for (Class<?> type : EventTypes.all().values().stream()
                        .filter(d.baseType()::isAssignableFrom)
                        .toList()) {
                    EventSchemas.document(EventTypes.typeOf(type))
                            .path("properties")
                            .fields()
                            .forEachRemaining(p -> p.getValue().fieldNames().forEachRemaining(keyword -> {
                                if (!ComponentConstraints.UNDERSTOOD.contains(keyword)) {
                                    unchecked.add(type.getSimpleName() + "." + p.getKey() + ": " + keyword);
                                }
                            }));
                }
            }
        }
        assertThat(checked).contains(Topics.GPU_SAMPLES.baseName());
        assertThat(unchecked).as("keywords REQUIRED_FIELDS would let through").isEmpty();
    }

    private static JsonNode withValue(SchemaBoundaries.Case boundary) {
        ObjectNode body = Json.mapper().valueToTree(EventSamples.gpuSample());
        body.set(boundary.property(), boundary.value());
        return body;
    }

    private static byte[] bytes(JsonNode body) {
        try {
            return Json.mapper().writeValueAsBytes(body);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
