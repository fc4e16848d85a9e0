package io.gpuaas.events.gpu;

import static io.gpuaas.events.gpu.GpuSampleCases.TOPIC;
import static io.gpuaas.events.gpu.GpuSampleCases.TYPE;
import static io.gpuaas.events.gpu.GpuSampleCases.typed;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.CloudEventDeserializer;
import io.gpuaas.events.EventDecodingException;
import io.gpuaas.events.EventSerdes;
import io.gpuaas.events.SchemaValidation;
import io.gpuaas.events.Topics;
import java.nio.charset.StandardCharsets;
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
class GpuSampleCodecReaderTest {

    /** What the samples topic was read with before it had a codec, and what the codec falls back to. */
    private final Deserializer<GpuSampleEvent> generic = EventSerdes.valueDeserializer(
            Topics.GPU_SAMPLES, new CloudEventDeserializer<>(GpuSampleEvent.class, SchemaValidation.REQUIRED_FIELDS));

    private final Deserializer<GpuSampleEvent> codec = EventSerdes.valueDeserializer(Topics.GPU_SAMPLES);

    /** What a deserializer made of a record: the value, or the decoding error's reason and message. */
    static Object outcome(Deserializer<GpuSampleEvent> d, Headers headers, byte[] body) {
        try {
            return d.deserialize(TOPIC, headers, body);
        } catch (EventDecodingException e) {
            return "error " + e.reason() + ": " + e.getMessage();
        }
    }

    @Test
    void shouldReadWhatProducersWriteWithoutFallingBackWhenTheShapeIsTheUsualOne() {
        GpuSampleCodec.Writer writer = new GpuSampleCodec(GpuSampleCases.fixedHeaders()).writer();
        for (GpuSampleCases.Case c : GpuSampleCases.golden()) {
            var record = writer.record(TOPIC, c.sample());

            assertThat(GpuSampleJsonReader.read(record.value()))
                    .as(c.name())
                    .isEqualTo(c.fastShape() ? c.sample() : null);
            assertThat(codec.deserialize(TOPIC, record.headers(), record.value()))
                    .as(c.name())
                    .isEqualTo(generic.deserialize(TOPIC, record.headers(), record.value()))
                    .isEqualTo(c.sample());
        }
    }

    @Test
    void shouldAnswerLikeTheGenericReaderWhenBodiesAreUnusualOrBroken() {
        String base = "\"hostname\":\"h\",\"uuid\":\"u\"";
        String t = ",\"time\":\"2026-01-01T00:00:00Z\"";
        List<String> bodies = List.of(
                "{\"time\":\"2026-01-01T00:00:00Z\"," + base + "}",
                " \n{ \"time\" : \"2026-01-01T00:00:00.5Z\" ,\t" + base + " }\r\n",
                "{" + base + t + ",\"utilization\":-0}",
                "{" + base + t + ",\"utilization\":-0.0,\"powerWatts\":1E3}",
                "{" + base + t + ",\"utilization\":1.5e-3,\"memoryUsedMiB\":12345678901234567890}",
                "{" + base + t + ",\"utilization\":1e400}",
                "{" + base + t + ",\"utilization\":\"0.5\"}",
                "{" + base + t + ",\"utilization\":NaN}",
                "{" + base + t + ",\"utilization\":01}",
                "{" + base + t + ",\"utilization\":1.5}",
                "{" + base + t + ",\"powerWatts\":-1}",
                "{" + base + t + ",\"utilizationSource\":\"gpu_util\"}",
                "{" + base + t + ",\"gpuIndex\":1.0}",
                "{" + base + t + ",\"gpuIndex\":\"1\"}",
                "{" + base + t + ",\"gpuIndex\":12345678901}",
                "{" + base + t + ",\"extra\":{\"a\":[1,2]}}",
                "{" + base + t + ",\"pod\":\"caf\\u00e9\"}",
                "{" + base + t + ",\"pod\":\"café\"}",
                "{" + base + t + ",\"pod\":true}",
                "{" + base + t + ",\"hostname\":\"dup\"}",
                "{" + base + ",\"t\\u0069me\":\"2026-01-01T00:00:00Z\"}",
                "{" + base + "}",
                "{" + base + ",\"time\":null}",
                "{\"time\":\"2026-01-01T00:00:00Z\",\"uuid\":\"u\",\"hostname\":null}",
                "{\"time\":\"2026-01-01T00:00:00Z\",\"uuid\":\"u\",\"hostname\":\"\"}",
                "{" + base + ",\"time\":\"2026-01-01T00:00:00+00:00\"}",
                "{" + base + ",\"time\":\"2026-01-01t00:00:00z\"}",
                "{" + base + ",\"time\":\"2026-12-31T23:59:60Z\"}",
                "{" + base + ",\"time\":\"2026-01-01T24:00:00Z\"}",
                "{" + base + ",\"time\":\"2026-02-29T00:00:00Z\"}",
                "{" + base + ",\"time\":\"2026-01-01T00:00Z\"}",
                "{" + base + ",\"time\":\"2026-01-01T00:00:00.1234567891Z\"}",
                "{" + base + ",\"time\":1767225600}",
                "{" + base + ",\"time\":\"1767225600\"}",
                "{" + base + t + "} trailing",
                "{" + base + t,
                "{" + base + t + ",}",
                "",
                "null",
                "[]",
                "{}",
                "\"text\"");
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
            byte[] body = ("{\"time\":\"2026-01-01T00:00:00Z\",\"hostname\":\"h\",\"uuid\":\"u\",\"memoryUsedMiB\":"
                            + number + "}")
                    .getBytes(StandardCharsets.UTF_8);

            // Negative readings are out of the schema's range: the generic reader rejects them, the fast path declines.
            assertThat(GpuSampleJsonReader.read(body))
                    .as(number)
                    .matches(read -> read != null || number.startsWith("-"));
            assertThat(outcome(codec, typed(TYPE), body)).as(number).isEqualTo(outcome(generic, typed(TYPE), body));
        }
    }

    @Test
    void shouldAnswerLikeTheGenericReaderWhenBodiesAreCorrupted() {
        Random random = new Random(42);
        GpuSampleCodec.Writer writer = new GpuSampleCodec(GpuSampleCases.fixedHeaders()).writer();
        List<byte[]> valid = GpuSampleCases.golden().stream()
                .map(c -> writer.body(c.sample()))
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
        byte[] body = new GpuSampleCodec(GpuSampleCases.fixedHeaders())
                .writer()
                .body(GpuSampleCases.golden().getFirst().sample());

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
