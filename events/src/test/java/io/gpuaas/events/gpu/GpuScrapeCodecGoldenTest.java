package io.gpuaas.events.gpu;

import static io.gpuaas.events.gpu.GpuScrapeCases.TOPIC;
import static io.gpuaas.events.gpu.GpuScrapeCases.TYPE;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.CloudEventDeserializer;
import io.gpuaas.events.CloudEvents;
import io.gpuaas.events.EventSerdes;
import io.gpuaas.events.SchemaValidation;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The samples topic's records, pinned byte for byte: key, the six CloudEvents headers (fixed clock and id generator)
 * and body of each fixed scrape in {@code src/test/resources/golden/gpu-scrapes/<case>.txt}, written the way kcat
 * shows a record. A diff there is a wire change: regenerate on purpose with {@code -Dgolden.update=true}, then read
 * it. The generic serdes ({@code EventSerdes.of(GpuScrapeEvent.class)}) must agree with the codec on every case.
 */
class GpuScrapeCodecGoldenTest {

    private static final Path GOLDEN = Path.of("src/test/resources/golden/gpu-scrapes");
    private static final byte[] BLANK_LINE = "\n\n".getBytes(StandardCharsets.US_ASCII);

    static Stream<GpuScrapeCases.Case> golden() {
        return GpuScrapeCases.golden().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("golden")
    void shouldWriteTheGoldenRecordByteForByteWhenTheCodecEncodesAFixedScrape(GpuScrapeCases.Case c)
            throws IOException {
        ProducerRecord<byte[], byte[]> record =
                new GpuScrapeCodec(GpuScrapeCases.fixedHeaders()).writer().record(TOPIC, c.scrape());
        byte[] written = render(record.key(), record.headers().toArray(), record.value());
        Path golden = GOLDEN.resolve(c.name() + ".txt");
        if (Boolean.getBoolean("golden.update")) {
            Files.createDirectories(GOLDEN);
            Files.write(golden, written);
        }

        assertThat(golden)
                .as("golden file; create it with -Dgolden.update=true")
                .exists();
        assertThat(new String(written, StandardCharsets.UTF_8))
                .isEqualTo(new String(Files.readAllBytes(golden), StandardCharsets.UTF_8));
        assertThat(written).isEqualTo(Files.readAllBytes(golden));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("golden")
    void shouldReadTheGoldenBytesBackToTheScrapeWhenTheCodecOrTheGenericReaderDecodes(GpuScrapeCases.Case c)
            throws IOException {
        Golden golden = Golden.read(GOLDEN.resolve(c.name() + ".txt"));

        assertThat(GpuScrapeJsonReader.read(golden.body()))
                .as("fast path")
                .isEqualTo(c.fastShape() ? c.scrape() : null);
        assertThat(GpuScrapeCases.topicReader().deserialize(TOPIC, golden.headers(), golden.body()))
                .as("the topic's reader")
                .isEqualTo(c.scrape());
        for (SchemaValidation mode : SchemaValidation.values()) {
            assertThat(new CloudEventDeserializer<>(GpuScrapeEvent.class, mode)
                            .deserialize(TOPIC, golden.headers(), golden.body()))
                    .as("generic " + mode)
                    .isEqualTo(c.scrape());
        }
        assertThat(new String(golden.key(), StandardCharsets.UTF_8))
                .isEqualTo(c.scrape().node());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("golden")
    void shouldWriteWhatTheGenericSerializerWritesWhenBothEncodeAGoldenScrape(GpuScrapeCases.Case c)
            throws IOException {
        Golden golden = Golden.read(GOLDEN.resolve(c.name() + ".txt"));
        RecordHeaders generic = new RecordHeaders();
        byte[] genericBody = EventSerdes.of(GpuScrapeEvent.class).serializer().serialize(TOPIC, generic, c.scrape());
        RecordHeaders topics = new RecordHeaders();
        byte[] topicBody = GpuScrapeCases.topicSerde().serializer().serialize(TOPIC, topics, c.scrape());

        assertThat(genericBody).as("generic serializer").isEqualTo(golden.body());
        assertThat(topicBody).as("the topic's serializer").isEqualTo(golden.body());
        Map<String, String> expected = GpuScrapeCases.text(golden.headers());
        for (Map<String, String> written : List.of(GpuScrapeCases.text(generic), GpuScrapeCases.text(topics))) {
            assertThat(written.keySet()).containsExactlyElementsOf(expected.keySet());
            assertThat(written)
                    .containsEntry(CloudEvents.SPECVERSION, expected.get(CloudEvents.SPECVERSION))
                    .containsEntry(CloudEvents.TYPE, TYPE)
                    .containsEntry(CloudEvents.TYPE, expected.get(CloudEvents.TYPE))
                    .containsEntry(CloudEvents.CONTENT_TYPE, expected.get(CloudEvents.CONTENT_TYPE))
                    .containsEntry(CloudEvents.SOURCE, CloudEvents.DEFAULT_SOURCE);
        }
    }

    /** {@code key: <key>}, one {@code name: value} line per header, a blank line, the body and a newline. */
    private static byte[] render(byte[] key, Header[] headers, byte[] body) {
        StringBuilder head = new StringBuilder("key: ").append(new String(key, StandardCharsets.UTF_8));
        for (Header header : headers) {
            head.append('\n')
                    .append(header.key())
                    .append(": ")
                    .append(new String(header.value(), StandardCharsets.UTF_8));
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(head.toString().getBytes(StandardCharsets.UTF_8));
        out.writeBytes(BLANK_LINE);
        out.writeBytes(body);
        out.write('\n');
        return out.toByteArray();
    }

    /** A golden file read back into the record it shows. */
    private record Golden(byte[] key, RecordHeaders headers, byte[] body) {

        static Golden read(Path file) throws IOException {
            byte[] all = Files.readAllBytes(file);
            int split = indexOf(all, BLANK_LINE);
            byte[] body = Arrays.copyOfRange(all, split + BLANK_LINE.length, all.length - 1);
            String[] lines = new String(all, 0, split, StandardCharsets.UTF_8).split("\n");
            RecordHeaders headers = new RecordHeaders();
            byte[] key = null;
            for (String line : lines) {
                int colon = line.indexOf(": ");
                byte[] value = line.substring(colon + 2).getBytes(StandardCharsets.UTF_8);
                if (line.startsWith("key: ")) {
                    key = value;
                } else {
                    headers.add(line.substring(0, colon), value);
                }
            }
            return new Golden(key, headers, body);
        }

        private static int indexOf(byte[] all, byte[] part) {
            for (int i = 0; i + part.length <= all.length; i++) {
                if (Arrays.equals(all, i, i + part.length, part, 0, part.length)) {
                    return i;
                }
            }
            throw new IllegalArgumentException("no blank line between headers and body");
        }
    }
}
