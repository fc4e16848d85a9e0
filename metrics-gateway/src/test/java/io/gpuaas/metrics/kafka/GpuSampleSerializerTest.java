package io.gpuaas.metrics.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.CloudEvents;
import io.gpuaas.events.Json;
import io.gpuaas.events.Topics;
import io.gpuaas.events.gpu.GpuSample;
import io.gpuaas.events.gpu.GpuSampleEvent;
import io.gpuaas.events.EventTypes;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

class GpuSampleSerializerTest {

    private final GpuSampleSerializer serializer = new GpuSampleSerializer("/gpuaas/metrics-gateway");

    private static final List<GpuSample> SAMPLES = List.of(
            new GpuSample(Instant.parse("2026-11-21T17:30:00.125Z"), "gpu-node-1", "GPU-5d2c", 2, "NVIDIA H200", "3",
                    "2g.35gb", "team-a", "train-worker-0", "pytorch", 0.42, "GR_ENGINE_ACTIVE", 20480.0, 15360.0, 301.5),
            new GpuSample(Instant.parse("2026-11-21T17:30:00Z"), "n\"1\\", "GPU-x", null, null, null, null, null, null,
                    null, null, null, null, null, null),
            new GpuSample(Instant.parse("2026-11-21T17:30:00.000000001Z"), "nöde\n\t\u0001", "GPU-y", 0, "Tesla T4",
                    null, null, "ns", "p", "c", 1.0E-7, "GPU_UTIL", 0.0, 1.5E10, 8.969));

    /** Doubles on both sides of the integral fast path (10^7, -0.0, fractions, exponents) and no time at all. */
    private static final List<GpuSample> SAMPLES_AND_NUMBERS = Stream.concat(SAMPLES.stream(),
            Stream.of(
                    new GpuSample(null, "h", "GPU-z", 7, null, null, null, null, null, null, -0.0, "GPU_UTIL", 9999999.0,
                            1.0E7, -3.0),
                    new GpuSample(Instant.parse("2026-11-21T17:30:00.123456Z"), null, "GPU-w", null, null, null, null,
                            null, null, null, 0.001, "GR_ENGINE_ACTIVE", 123456.0, 1.0E-3, 2.5E-4),
                    new GpuSample(null, null, null, null, null, null, null, null, null, null, null, null, null,
                            12.75, 1.0E22))).toList();

    @Test
    void shouldWriteTheSameJsonAsTheContractsMapperWhenSerializingSamples() throws Exception {
        GpuSampleSerializer.Writer writer = GpuSampleSerializer.writer();
        for (GpuSample sample : SAMPLES_AND_NUMBERS) {
            String expected = new String(Json.mapper().writeValueAsBytes(sample), StandardCharsets.UTF_8);
            assertThat(new String(GpuSampleSerializer.json(sample), StandardCharsets.UTF_8)).isEqualTo(expected);
            // One writer across samples: its reused buffer and cached scrape time must never leak into the next.
            assertThat(new String(serializer.record("t", sample, writer).value(), StandardCharsets.UTF_8))
                    .isEqualTo(expected);
        }
    }

    @Test
    void shouldBuildDeviceKeyedCloudEventRecordsWhenOneWriterEncodesAScrape() {
        GpuSampleSerializer.Writer writer = GpuSampleSerializer.writer();

        List<ProducerRecord<byte[], byte[]>> records = SAMPLES.stream()
                .map(sample -> serializer.record("gpuaas.gpu-samples", sample, writer)).toList();

        for (int i = 0; i < SAMPLES.size(); i++) {
            ProducerRecord<byte[], byte[]> record = records.get(i);
            assertThat(new String(record.key(), StandardCharsets.UTF_8)).isEqualTo(SAMPLES.get(i).deviceKey());
            assertThat(Topics.GPU_SAMPLES.valueSerde().deserializer()
                    .deserialize(record.topic(), record.headers(), record.value())).isEqualTo(SAMPLES.get(i));
            assertThat(CloudEvents.header(record.headers(), CloudEvents.TYPE))
                    .isEqualTo(EventTypes.typeOf(GpuSample.class));
            assertThat(Instant.parse(CloudEvents.header(record.headers(), CloudEvents.TIME)))
                    .isBetween(Instant.now().minusSeconds(60), Instant.now());
        }
        assertThat(records).extracting(r -> CloudEvents.header(r.headers(), CloudEvents.ID)).doesNotHaveDuplicates()
                .allSatisfy(id -> assertThat(UUID.fromString(id).version()).isEqualTo(4));
    }

    @Test
    void shouldReplaceHeadersTheRecordCarriedWhenSerializingIntoExistingHeaders() {
        RecordHeaders headers = new RecordHeaders();
        headers.add(CloudEvents.TYPE, "io.example.other".getBytes(StandardCharsets.UTF_8));

        serializer.serialize("t", headers, SAMPLES.getFirst());

        assertThat(headers.headers(CloudEvents.TYPE)).singleElement()
                .extracting(h -> new String(h.value(), StandardCharsets.UTF_8))
                .isEqualTo(EventTypes.typeOf(GpuSample.class));
        assertThat(headers.toArray()).hasSize(6);
    }

    @Test
    void shouldBeReadableByTheContractsDeserializerWhenHeadersAreWritten() {
        RecordHeaders headers = new RecordHeaders();
        byte[] body = serializer.serialize("t", headers, SAMPLES.getFirst());

        GpuSampleEvent read = Topics.GPU_SAMPLES.valueSerde().deserializer().deserialize("t", headers, body);

        assertThat(read).isEqualTo(SAMPLES.getFirst());
        assertThat(CloudEvents.header(headers, CloudEvents.SOURCE)).isEqualTo("/gpuaas/metrics-gateway");
        assertThat(CloudEvents.header(headers, CloudEvents.SPECVERSION)).isEqualTo("1.0");
        assertThat(CloudEvents.header(headers, CloudEvents.ID)).matches("[0-9a-f-]{36}").contains("-4");
        assertThat(CloudEvents.header(headers, CloudEvents.CONTENT_TYPE)).isEqualTo("application/json");
        assertThat(Instant.parse(CloudEvents.header(headers, CloudEvents.TIME))).isNotNull();
    }
}
