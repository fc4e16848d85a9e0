package io.gpuaas.events.gpu;

import static io.gpuaas.events.gpu.GpuScrapeCases.TOPIC;
import static io.gpuaas.events.gpu.GpuScrapeCases.TYPE;
import static io.gpuaas.events.gpu.GpuScrapeCases.typed;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.EventDecodingException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Deserializer;
import org.junit.jupiter.api.Test;

/**
 * The topic's reader must answer exactly what the generic reader answers (the same record, or the same decoding
 * error, which is what dead-letters a record): for what producers write, for hand-written edge cases, and for
 * thousands of corrupted bodies.
 */
class GpuScrapeCodecReaderTest {

    private final Deserializer<GpuScrapeEvent> generic = GpuScrapeCases.genericReader();
    private final Deserializer<GpuScrapeEvent> codec = GpuScrapeCases.topicReader();

    /** What a deserializer made of a record: the value, or the decoding error's reason and message. */
    static Object outcome(Deserializer<GpuScrapeEvent> d, Headers headers, byte[] body) {
        try {
            return d.deserialize(TOPIC, headers, body);
        } catch (EventDecodingException e) {
            return "error " + e.reason() + ": " + e.getMessage();
        }
    }

    @Test
    void shouldReadWhatProducersWriteWithoutFallingBackWhenTheShapeIsTheUsualOne() {
        GpuScrapeCodec.Writer writer = new GpuScrapeCodec(GpuScrapeCases.fixedHeaders()).writer();
        for (GpuScrapeCases.Case c : GpuScrapeCases.golden()) {
            var record = writer.record(TOPIC, c.scrape());

            assertThat(GpuScrapeJsonReader.read(record.value()))
                    .as(c.name())
                    .isEqualTo(c.fastShape() ? c.scrape() : null);
            assertThat(codec.deserialize(TOPIC, record.headers(), record.value()))
                    .as(c.name())
                    .isEqualTo(generic.deserialize(TOPIC, record.headers(), record.value()))
                    .isEqualTo(c.scrape());
        }
    }

    @Test
    void shouldAnswerLikeTheGenericReaderWhenScrapeLevelBodiesAreUnusualOrBroken() {
        String base = "\"node\":\"n\",\"devices\":[{\"uuid\":\"u\"}]";
        String t = ",\"time\":\"2026-01-01T00:00:00Z\"";
        List<String> bodies = List.of(
                "{\"time\":\"2026-01-01T00:00:00Z\"," + base + "}",
                " \n{ \"time\" : \"2026-01-01T00:00:00.5Z\" ,\t" + base + " }\r\n",
                "{" + base + t + ",\"target\":\"10.0.0.1:9400\"}",
                "{" + base + t + ",\"target\":null}",
                "{" + base + t + ",\"target\":7}",
                "{" + base + t + ",\"node\":\"dup\"}",
                "{" + base + t + ",\"extra\":{\"a\":[1,2]}}",
                "{\"node\":\"n\",\"devices\":[]" + t + "}",
                "{\"node\":\"n\",\"devices\":[ ]" + t + "}",
                "{\"node\":\"n\",\"devices\":null" + t + "}",
                "{\"node\":\"n\"" + t + "}",
                "{\"node\":\"n\",\"devices\":{}" + t + "}",
                "{\"node\":\"n\",\"devices\":[null]" + t + "}",
                "{\"node\":\"n\",\"devices\":[{\"uuid\":\"u\"},]" + t + "}",
                "{\"node\":\"n\",\"devices\":[{\"uuid\":\"u\"} {\"uuid\":\"v\"}]" + t + "}",
                "{\"node\":\"n\",\"devices\":[{\"uuid\":\"u\"},{\"uuid\":\"u\",\"gpuInstanceId\":\"1\"}]" + t + "}",
                "{\"node\":\"\",\"devices\":[]" + t + "}",
                "{\"node\":null,\"devices\":[]" + t + "}",
                "{\"devices\":[]" + t + "}",
                "{\"node\":\"caf\\u00e9\",\"devices\":[]" + t + "}",
                "{\"node\":\"café\",\"devices\":[]" + t + "}",
                "{" + base + ",\"t\\u0069me\":\"2026-01-01T00:00:00Z\"}",
                "{" + base + "}",
                "{" + base + ",\"time\":null}",
                "{" + base + ",\"time\":\"2026-01-01T00:00:00+00:00\"}",
                "{" + base + ",\"time\":\"2026-01-01t00:00:00z\"}",
                "{" + base + ",\"time\":\"2026-12-31T23:59:60Z\"}",
                "{" + base + ",\"time\":\"2026-01-01T24:00:00Z\"}",
                "{" + base + ",\"time\":\"2026-02-29T00:00:00Z\"}",
                "{" + base + ",\"time\":\"2026-01-01T00:00Z\"}",
                "{" + base + ",\"time\":\"2026-01-01T00:00:00.1234567891Z\"}",
                "{" + base + ",\"time\":1767225600}",
                "{" + base + t + "} trailing",
                "{" + base + t,
                "{" + base + t + ",}",
                "",
                "null",
                "[]",
                "{}",
                "\"text\"");
        assertSameAnswers(bodies);
    }

    @Test
    void shouldAnswerLikeTheGenericReaderWhenDeviceBodiesAreUnusualOrBroken() {
        List<String> devices = List.of(
                "\"utilization\":-0",
                "\"utilization\":-0.0,\"powerWatts\":1E3",
                "\"utilization\":1.5e-3,\"memoryUsedMiB\":12345678901234567890",
                "\"utilization\":1e400",
                "\"utilization\":\"0.5\"",
                "\"utilization\":NaN",
                "\"utilization\":01",
                "\"utilization\":1.5",
                "\"utilization\":1",
                "\"powerWatts\":-1",
                "\"memoryFreeMiB\":-0.5",
                "\"decoderUtilPercent\":46,\"encoderUtilPercent\":0",
                "\"decoderUtilPercent\":100.5",
                "\"encoderUtilPercent\":-1",
                "\"utilizationSource\":\"gpu_util\"",
                "\"utilizationSource\":null",
                "\"gpuIndex\":1.0",
                "\"gpuIndex\":\"1\"",
                "\"gpuIndex\":12345678901",
                "\"gpuIndex\":-3",
                "\"extra\":{\"a\":[1,2]}",
                "\"pod\":\"caf\\u00e9\"",
                "\"pod\":\"café\"",
                "\"pod\":true",
                "\"hostnameLabel\":\"dcgm-exporter-wwwjh\"",
                "\"uuid\":\"dup\"",
                "\"uuid\":null");
        List<String> bodies = new ArrayList<>();
        for (String fields : devices) {
            bodies.add(
                    "{\"time\":\"2026-01-01T00:00:00Z\",\"node\":\"n\",\"devices\":[{\"uuid\":\"u\"},{\"uuid\":\"v\","
                            + fields + "}]}");
        }
        bodies.add("{\"time\":\"2026-01-01T00:00:00Z\",\"node\":\"n\",\"devices\":[{\"uuid\":\"\"}]}");
        bodies.add("{\"time\":\"2026-01-01T00:00:00Z\",\"node\":\"n\",\"devices\":[{\"gpuIndex\":1}]}");
        bodies.add("{\"time\":\"2026-01-01T00:00:00Z\",\"node\":\"n\",\"devices\":[{}]}");
        assertSameAnswers(bodies);
    }

    private void assertSameAnswers(List<String> bodies) {
        for (String body : bodies) {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);

            assertThat(outcome(codec, typed(TYPE), bytes)).as(body).isEqualTo(outcome(generic, typed(TYPE), bytes));
        }
    }

    @Test
    void shouldReadPlainDecimalsToTheSameDoubleAsTheGenericReader() {
        Random random = new Random(7);
        for (int i = 0; i < 1_000; i++) {
            String number = (random.nextBoolean() ? "-" : "") + random.nextInt(1 + random.nextInt(100_000_000)) + "."
                    + String.valueOf(random.nextLong() & Long.MAX_VALUE).substring(0, 1 + random.nextInt(14));
            byte[] body = ("{\"time\":\"2026-01-01T00:00:00Z\",\"node\":\"n\",\"devices\":[{\"uuid\":\"u\","
                            + "\"memoryUsedMiB\":" + number + "}]}")
                    .getBytes(StandardCharsets.UTF_8);

            // Negative readings are out of the schema's range: the generic reader rejects them, the fast path declines.
            assertThat(GpuScrapeJsonReader.read(body))
                    .as(number)
                    .matches(read -> read != null || number.startsWith("-"));
            assertThat(outcome(codec, typed(TYPE), body)).as(number).isEqualTo(outcome(generic, typed(TYPE), body));
        }
    }

    @Test
    void shouldAnswerLikeTheGenericReaderWhenBodiesAreCorrupted() {
        Random random = new Random(42);
        GpuScrapeCodec.Writer writer = new GpuScrapeCodec(GpuScrapeCases.fixedHeaders()).writer();
        List<byte[]> valid = GpuScrapeCases.golden().stream()
                .map(c -> writer.body(c.scrape()))
                .toList();
        byte[] alphabet = "{}[]\":,.-+eE0123456789 \\nulltrfaZT".getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < 2_000; i++) {
            byte[] body = valid.get(random.nextInt(valid.size())).clone();
            int edits = 1 + random.nextInt(3);
            for (int e = 0; e < edits; e++) {
                body = mutate(body, random, alphabet);
            }

            assertThat(outcome(codec, typed(TYPE), body))
                    .as(new String(body, StandardCharsets.UTF_8))
                    .isEqualTo(outcome(generic, typed(TYPE), body));
        }
    }

    private static byte[] mutate(byte[] body, Random random, byte[] alphabet) {
        if (body.length == 0) {
            return body;
        }
        int at = random.nextInt(body.length);
        byte b = alphabet[random.nextInt(alphabet.length)];
        return switch (random.nextInt(3)) {
            case 0 -> {
                body[at] = b;
                yield body;
            }
            case 1 -> {
                byte[] out = new byte[body.length - 1];
                System.arraycopy(body, 0, out, 0, at);
                System.arraycopy(body, at + 1, out, at, body.length - at - 1);
                yield out;
            }
            default -> {
                byte[] out = new byte[body.length + 1];
                System.arraycopy(body, 0, out, 0, at);
                out[at] = b;
                System.arraycopy(body, at, out, at + 1, body.length - at);
                yield out;
            }
        };
    }

    @Test
    void shouldRejectMissingOrForeignTypesAndTombstonesLikeTheGenericReader() {
        byte[] body = new GpuScrapeCodec(GpuScrapeCases.fixedHeaders())
                .writer()
                .body(GpuScrapeCases.golden().getFirst().scrape());

        assertThat(outcome(codec, new RecordHeaders(), body)).asString().startsWith("error MISSING_TYPE");
        assertThat(outcome(codec, typed("io.gpuaas.reclaim.reclaimed.v1"), body))
                .asString()
                .startsWith("error WRONG_TYPE");
        assertThat(outcome(codec, typed("io.gpuaas.nothing.v9"), body))
                .asString()
                .startsWith("error UNKNOWN_TYPE");
        // gpu-samples is not compacted: a null deletes nothing there and is dead-lettered, not read as a delete.
        assertThat(outcome(codec, typed(TYPE), null)).asString().startsWith("error TOMBSTONE");
        for (Headers headers :
                List.of(new RecordHeaders(), typed("io.gpuaas.reclaim.reclaimed.v1"), typed("io.gpuaas.nothing.v9"))) {
            assertThat(outcome(codec, headers, body)).isEqualTo(outcome(generic, headers, body));
        }
        assertThat(outcome(codec, typed(TYPE), null)).isEqualTo(outcome(generic, typed(TYPE), null));
    }
}
