package io.gpuaas.reclaim.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.CloudEvents;
import io.gpuaas.events.EventDecodingException;
import io.gpuaas.events.EventSerdes;
import io.gpuaas.events.EventTypes;
import io.gpuaas.events.Topics;
import io.gpuaas.events.gpu.GpuSample;
import io.gpuaas.events.gpu.GpuSampleEvent;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Deserializer;
import org.junit.jupiter.api.Test;

/**
 * The fast reader must answer exactly what the contract's deserializer answers: the same record, or the same
 * decoding error (which is what dead-letters a record), for golden records the contract writes, for hand-written
 * edge cases, and for thousands of corrupted bodies.
 */
class GpuSampleDeserializerTest {

    private static final String TOPIC = "gpuaas.gpu-samples";
    private static final String TYPE = EventTypes.typeOf(GpuSample.class);

    private final Deserializer<GpuSampleEvent> contract = EventSerdes.valueDeserializer(Topics.GPU_SAMPLES);
    private final GpuSampleDeserializer fast = new GpuSampleDeserializer();

    /** What a deserializer made of a record: the value, or the decoding error's reason. */
    private static Object outcome(Deserializer<GpuSampleEvent> d, Headers headers, byte[] body) {
        try {
            return d.deserialize(TOPIC, headers, body);
        } catch (EventDecodingException e) {
            return "error " + e.reason();
        }
    }

    private static Headers typed(String type) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(CloudEvents.SPECVERSION, "1.0".getBytes(StandardCharsets.UTF_8));
        headers.add(CloudEvents.TYPE, type.getBytes(StandardCharsets.UTF_8));
        return headers;
    }

    static List<GpuSample> golden() {
        Instant t = Instant.parse("2026-11-22T15:00:00Z");
        List<GpuSample> out = new ArrayList<>();
        out.add(new GpuSample(t, "node-1", "GPU-0a1b", 0, "NVIDIA H200", null, null, "team-a", "chat-predictor-0",
                "kserve-container", 0.0, "GR_ENGINE_ACTIVE", 1024.0, 80_000.0, 90.5));
        out.add(new GpuSample(t.plusMillis(1), "node-1", "GPU-0a1b", 3, "NVIDIA H200", "2", "2g.35gb", "team-b",
                "train-worker-x7", "ray-worker", 0.05, null, null, null, null));
        out.add(new GpuSample(t.plusNanos(123_456_789), "gpu-node-17.example", "GPU-ffff", null, null, null, null,
                null, null, null, null, null, null, null, null));
        out.add(new GpuSample(t.plusSeconds(86_400 * 400L), "n", "u", 7, "m", "13", "1g.18gb", "ns", "p", "c", 1.0,
                "GPU_UTIL", 0.0, 143_771.0, 700.0));
        out.add(new GpuSample(Instant.parse("2024-02-29T23:59:59.999Z"), "h", "u", 0, null, null, null, "ns",
                "p", null, 1.0E-7, "GR_ENGINE_ACTIVE", 123_456_789_012.0, 0.5, 0.001));
        out.add(new GpuSample(Instant.EPOCH, "h", "u", -1, "", "", "", "", "", "", 0.9999999999999999, "GPU_UTIL",
                -0.0, Double.MIN_VALUE, 1.7976931348623157E308));
        return out;
    }

    @Test
    void shouldReadEveryGoldenRecordLikeTheContractWithoutFallingBack() {
        for (GpuSample sample : golden()) {
            Headers headers = new RecordHeaders();
            byte[] body = Topics.GPU_SAMPLES.valueSerde().serializer().serialize(TOPIC, headers, sample);

            assertThat(GpuSampleJson.read(body)).as(new String(body, StandardCharsets.UTF_8)).isEqualTo(sample);
            assertThat(fast.deserialize(TOPIC, headers, body)).isEqualTo(contract.deserialize(TOPIC, headers, body))
                    .isEqualTo(sample);
        }
    }

    @Test
    void shouldAnswerLikeTheContractOnHandWrittenEdgeCases() {
        String base = "\"hostname\":\"h\",\"uuid\":\"u\"";
        List<String> bodies = List.of(
                "{\"time\":\"2026-01-01T00:00:00Z\"," + base + "}",
                " \n{ \"time\" : \"2026-01-01T00:00:00.5Z\" ,\t" + base + " }\r\n",
                "{" + base + ",\"time\":\"2026-01-01T00:00:00Z\",\"utilization\":-0}",
                "{" + base + ",\"time\":\"2026-01-01T00:00:00Z\",\"utilization\":-0.0,\"powerWatts\":1E3}",
                "{" + base + ",\"time\":\"2026-01-01T00:00:00Z\",\"utilization\":1.5e-3,\"memoryUsedMiB\":12345678901234567890}",
                "{" + base + ",\"time\":\"2026-01-01T00:00:00Z\",\"utilization\":1e400}",
                "{" + base + ",\"time\":\"2026-01-01T00:00:00Z\",\"utilization\":\"0.5\"}",
                "{" + base + ",\"time\":\"2026-01-01T00:00:00Z\",\"utilization\":NaN}",
                "{" + base + ",\"time\":\"2026-01-01T00:00:00Z\",\"utilization\":01}",
                "{" + base + ",\"time\":\"2026-01-01T00:00:00Z\",\"gpuIndex\":1.0}",
                "{" + base + ",\"time\":\"2026-01-01T00:00:00Z\",\"gpuIndex\":\"1\"}",
                "{" + base + ",\"time\":\"2026-01-01T00:00:00Z\",\"gpuIndex\":12345678901}",
                "{" + base + ",\"time\":\"2026-01-01T00:00:00Z\",\"extra\":{\"a\":[1,2]}}",
                "{" + base + ",\"time\":\"2026-01-01T00:00:00Z\",\"pod\":\"caf\\u00e9\"}",
                "{" + base + ",\"time\":\"2026-01-01T00:00:00Z\",\"pod\":\"café\"}",
                "{" + base + ",\"time\":\"2026-01-01T00:00:00Z\",\"pod\":true}",
                "{" + base + ",\"time\":\"2026-01-01T00:00:00Z\",\"hostname\":\"dup\"}",
                "{" + base + ",\"t\\u0069me\":\"2026-01-01T00:00:00Z\"}",
                "{" + base + "}",
                "{" + base + ",\"time\":null}",
                "{\"time\":\"2026-01-01T00:00:00Z\",\"uuid\":\"u\",\"hostname\":null}",
                "{" + base + ",\"time\":\"2026-01-01T00:00:00+00:00\"}",
                "{" + base + ",\"time\":\"2026-01-01t00:00:00z\"}",
                "{" + base + ",\"time\":\"2026-12-31T23:59:60Z\"}",
                "{" + base + ",\"time\":\"2026-01-01T24:00:00Z\"}",
                "{" + base + ",\"time\":\"2026-02-29T00:00:00Z\"}",
                "{" + base + ",\"time\":\"2026-01-01T00:00Z\"}",
                "{" + base + ",\"time\":\"2026-01-01T00:00:00.1234567891Z\"}",
                "{" + base + ",\"time\":1767225600}",
                "{" + base + ",\"time\":\"1767225600\"}",
                "{" + base + ",\"time\":\"2026-01-01T00:00:00Z\"} trailing",
                "{" + base + ",\"time\":\"2026-01-01T00:00:00Z\"",
                "{" + base + ",\"time\":\"2026-01-01T00:00:00Z\",}",
                "", "null", "[]", "{}", "\"text\"");
        for (String body : bodies) {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            Headers headers = typed(TYPE);

            assertThat(outcome(fast, headers, bytes)).as(body).isEqualTo(outcome(contract, headers, bytes));
        }
    }

    @Test
    void shouldReadPlainDecimalsToTheSameDoubleAsTheContract() {
        Random random = new Random(7);
        for (int i = 0; i < 1_000; i++) {
            String number = (random.nextBoolean() ? "-" : "") + random.nextInt(1 + random.nextInt(100_000_000)) + "."
                    + String.valueOf(random.nextLong() & Long.MAX_VALUE).substring(0, 1 + random.nextInt(14));
            byte[] body = ("{\"time\":\"2026-01-01T00:00:00Z\",\"hostname\":\"h\",\"uuid\":\"u\",\"memoryUsedMiB\":"
                    + number + "}").getBytes(StandardCharsets.UTF_8);
            Headers headers = typed(TYPE);

            // Negative readings are out of the schema's range: the contract rejects them, the fast path declines.
            assertThat(GpuSampleJson.read(body)).as(number).matches(read -> read != null || number.startsWith("-"));
            assertThat(outcome(fast, headers, body)).as(number).isEqualTo(outcome(contract, headers, body));
        }
    }

    @Test
    void shouldAnswerLikeTheContractOnCorruptedBodies() {
        Random random = new Random(42);
        List<byte[]> valid = golden().stream()
                .map(s -> Topics.GPU_SAMPLES.valueSerde().serializer().serialize(TOPIC, new RecordHeaders(), s))
                .toList();
        byte[] alphabet = "{}[]\":,.-+eE0123456789 \\nulltrfaZT".getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < 2_000; i++) {
            byte[] body = valid.get(random.nextInt(valid.size())).clone();
            int edits = 1 + random.nextInt(3);
            for (int e = 0; e < edits; e++) {
                body = mutate(body, random, alphabet);
            }
            Headers headers = typed(TYPE);

            assertThat(outcome(fast, headers, body)).as(new String(body, StandardCharsets.UTF_8))
                    .isEqualTo(outcome(contract, headers, body));
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
    void shouldLeaveMissingOrForeignTypesAndTombstonesToTheContract() {
        byte[] body = Topics.GPU_SAMPLES.valueSerde().serializer().serialize(TOPIC, new RecordHeaders(),
                golden().getFirst());

        assertThat(outcome(fast, new RecordHeaders(), body)).isEqualTo("error MISSING_TYPE");
        assertThat(outcome(fast, typed("io.gpuaas.reclaim.reclaimed.v1"), body)).isEqualTo("error WRONG_TYPE");
        assertThat(outcome(fast, typed("io.gpuaas.nothing.v9"), body)).isEqualTo("error UNKNOWN_TYPE");
        // gpu-samples is not compacted: a null deletes nothing there and is dead-lettered, not read as a delete.
        assertThat(outcome(fast, typed(TYPE), null)).isEqualTo("error TOMBSTONE");
    }
}
