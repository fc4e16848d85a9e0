package io.gpuaas.events.gpu;

import static io.gpuaas.events.gpu.GpuScrapeCases.TYPE;
import static io.gpuaas.events.gpu.GpuScrapeCases.typed;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpuaas.events.EventSchemas;
import io.gpuaas.events.Json;
import io.gpuaas.events.SchemaBoundaries;
import java.io.IOException;
import java.util.stream.Stream;
import org.apache.kafka.common.serialization.Deserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The fast reader checks the schema's bounds by hand; these tests read the bounds from the shipped schema (the
 * scrape's properties and its devices'), put a value on and just past each one, and hold that the full schema, the
 * generic reader and the codec give the same verdict. A bound added to the schema and not to
 * {@link GpuScrapeJsonReader} fails here.
 */
class GpuScrapeCodecBoundsTest {

    private final Deserializer<GpuScrapeEvent> generic = GpuScrapeCases.genericReader();
    private final Deserializer<GpuScrapeEvent> codec = GpuScrapeCases.topicReader();

    /** A bound of the scrape itself or of one of its devices. */
    record Bound(boolean onDevice, SchemaBoundaries.Case value) {
        @Override
        public String toString() {
            return (onDevice ? "device." : "") + value;
        }
    }

    static Stream<Bound> boundaries() {
        return Stream.concat(
                SchemaBoundaries.of(TYPE).stream().map(c -> new Bound(false, c)),
                SchemaBoundaries.ofDefinition(TYPE, "Device").stream().map(c -> new Bound(true, c)));
    }

    @Test
    void shouldFindABoundOnEveryValueTheReclaimerTrustsWhenTheSchemaIsRead() {
        assertThat(boundaries()
                        .filter(b -> !b.value().allowed())
                        .map(Bound::toString)
                        .map(b -> b.substring(0, b.indexOf('='))))
                .contains(
                        "node",
                        "device.uuid",
                        "device.utilization",
                        "device.utilizationSource",
                        "device.memoryUsedMiB",
                        "device.memoryFreeMiB",
                        "device.powerWatts",
                        "device.decoderUtilPercent",
                        "device.encoderUtilPercent");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("boundaries")
    void shouldGiveTheSchemasVerdictWhenAValueIsOnOrPastABound(Bound bound) throws IOException {
        byte[] body = body(bound);
        boolean allowed = bound.value().allowed();

        assertThat(EventSchemas.violations(TYPE, Json.mapper().readTree(body)))
                .as("full schema")
                .hasSize(allowed ? 0 : 1);
        Object expected = GpuScrapeCodecReaderTest.outcome(generic, typed(TYPE), body);
        assertThat(expected)
                .as("generic reader")
                .asString()
                .startsWith(allowed ? "GpuScrape[" : "error SCHEMA_VIOLATION");
        assertThat(GpuScrapeCodecReaderTest.outcome(codec, typed(TYPE), body))
                .as("codec")
                .isEqualTo(expected);
        assertThat(GpuScrapeJsonReader.read(body))
                .as("fast path reads it, or declines")
                .matches(read -> allowed == (read != null));
    }

    /** A scrape as producers write it (every property set), with one property of it or of its second device replaced. */
    private static byte[] body(Bound bound) {
        ObjectNode json = Json.mapper().valueToTree(GpuScrapeCases.migAndFullGpu());
        ObjectNode target = bound.onDevice() ? (ObjectNode) json.path("devices").path(1) : json;
        target.set(bound.value().property(), bound.value().value());
        try {
            return Json.mapper().writeValueAsBytes(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
