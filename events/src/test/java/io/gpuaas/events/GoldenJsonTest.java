package io.gpuaas.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The wire format of every type, pinned: a change to a record or to {@link Json} changes a golden file, which shows
 * up in review. Regenerate deliberately with {@code -Dgolden.update=true}, then read the diff.
 */
class GoldenJsonTest {

    private static final Path GOLDEN = Path.of("src/test/resources/golden");

    static Stream<Arguments> everyType() {
        Map<Class<?>, Object> samples = EventSamples.all();
        return EventTypes.all().entrySet().stream().map(e -> Arguments.of(e.getKey(), samples.get(e.getValue())));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyType")
    void shouldProduceTheGoldenJsonWhenATypeIsSerialized(String ceType, Object sample) throws IOException {
        byte[] wire = new CloudEventSerializer<>().serialize("t", sample);
        JsonNode actual = Json.mapper().readTree(wire);
        Path golden = GOLDEN.resolve(ceType + ".json");
        if (Boolean.getBoolean("golden.update")) {
            Files.createDirectories(GOLDEN);
            // Sorted map entries keep regenerated files stable (Map.of iteration order varies between JVM runs).
            Files.writeString(
                    golden,
                    Json.mapper()
                                    .writer(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
                                    .withDefaultPrettyPrinter()
                                    .writeValueAsString(sample)
                            + "\n");
        }
        assertThat(golden)
                .as("golden file; create it with -Dgolden.update=true")
                .exists();
        JsonNode expected = Json.mapper().readTree(golden.toFile());
        assertThat(actual).as("wire JSON of %s differs from %s", ceType, golden).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyType")
    void shouldStillReadTheGoldenJsonWhenTheRecordsChange(String ceType, Object sample) throws IOException {
        byte[] golden = Files.readAllBytes(GOLDEN.resolve(ceType + ".json"));
        Object read = EventSerdes.of(sample.getClass())
                .deserializer()
                .deserialize("t", EventSerdesTest.headers(ceType), golden);
        assertThat(read).isEqualTo(sample);
    }
}
