package io.gpuaas.metrics.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.CloudEvents;
import io.gpuaas.events.Json;
import io.gpuaas.events.Topics;
import io.gpuaas.events.gpu.GpuSample;
import io.gpuaas.events.gpu.GpuSampleEvent;
import java.time.Instant;
import java.util.List;
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

    @Test
    void shouldWriteTheSameJsonAsTheContractsMapperWhenSerializingSamples() throws Exception {
        for (GpuSample sample : SAMPLES) {
            assertThat(new String(GpuSampleSerializer.json(sample)))
                    .isEqualTo(new String(Json.mapper().writeValueAsBytes(sample)));
        }
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
