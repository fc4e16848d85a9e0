package io.gpuaas.events.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.CloudEventHeaders;
import io.gpuaas.events.CloudEvents;
import io.gpuaas.events.EventSerdes;
import io.gpuaas.events.Json;
import io.gpuaas.events.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serializer;
import org.junit.jupiter.api.Test;

/** The codec's writer against Jackson's output ({@code Json.mapper()}) and the contract's reader. */
class GpuSampleCodecWriterTest {

    private final GpuSampleCodec codec = new GpuSampleCodec(CloudEventHeaders.of(GpuSampleCases.SOURCE));

    /** Doubles on both sides of the integral fast path (10^7, -0.0, fractions, exponents) and no time at all. */
    private static final List<GpuSample> SAMPLES_AND_NUMBERS = Stream.concat(
                    GpuSampleCases.golden().stream().map(GpuSampleCases.Case::sample),
                    Stream.of(
                            new GpuSample(
                                    null,
                                    "h",
                                    "GPU-z",
                                    7,
                                    null,
                                    null,
                                    null,
                                    null,
                                    null,
                                    null,
                                    -0.0,
                                    "GPU_UTIL",
                                    9999999.0,
                                    1.0E7,
                                    -3.0),
                            new GpuSample(
                                    Instant.parse("2026-11-21T17:30:00.123456Z"),
                                    null,
                                    "GPU-w",
                                    null,
                                    null,
                                    null,
                                    null,
                                    null,
                                    null,
                                    null,
                                    0.001,
                                    "GR_ENGINE_ACTIVE",
                                    123456.0,
                                    1.0E-3,
                                    2.5E-4),
                            new GpuSample(
                                    null, null, null, null, null, null, null, null, null, null, null, null, null, 12.75,
                                    1.0E22),
                            new GpuSample(
                                    Instant.EPOCH,
                                    "h",
                                    "u",
                                    -1,
                                    "",
                                    "",
                                    "",
                                    "",
                                    "",
                                    "",
                                    0.9999999999999999,
                                    "GPU_UTIL",
                                    Double.MIN_VALUE,
                                    1.7976931348623157E308,
                                    123_456_789_012.0)))
            .toList();

    @Test
    void shouldWriteTheSameJsonAsTheContractsMapperWhenOneWriterEncodesManySamples() throws Exception {
        GpuSampleCodec.Writer writer = codec.writer();
        Serializer<GpuSampleEvent> serializer = codec.serializer();
        for (GpuSample sample : SAMPLES_AND_NUMBERS) {
            String expected = new String(Json.mapper().writeValueAsBytes(sample), StandardCharsets.UTF_8);

            // One writer across samples: its reused buffer and kept time must never leak into the next sample.
            assertThat(new String(writer.record("t", sample).value(), StandardCharsets.UTF_8))
                    .isEqualTo(expected);
            assertThat(new String(serializer.serialize("t", sample), StandardCharsets.UTF_8))
                    .isEqualTo(expected);
        }
    }

    @Test
    void shouldLeaveNonFiniteReadingsOutWhenAnExporterReportsThem() {
        GpuSample sample = new GpuSample(
                GpuSampleCases.SCRAPE,
                "h",
                "u",
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                Double.NaN,
                null,
                Double.POSITIVE_INFINITY,
                Double.NEGATIVE_INFINITY,
                1.0);

        byte[] body = codec.writer().body(sample);

        assertThat(new String(body, StandardCharsets.UTF_8))
                .isEqualTo("{\"time\":\"2026-11-21T17:30:00.125Z\",\"hostname\":\"h\",\"uuid\":\"u\","
                        + "\"powerWatts\":1.0}");
        assertThat(EventSerdes.valueDeserializer(Topics.GPU_SAMPLES)
                        .deserialize("t", GpuSampleCases.typed(GpuSampleCases.TYPE), body))
                .isEqualTo(new GpuSample(
                        GpuSampleCases.SCRAPE,
                        "h",
                        "u",
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        1.0));
    }

    @Test
    void shouldBuildDeviceKeyedCloudEventRecordsWhenOneWriterEncodesAScrape() {
        GpuSampleCodec.Writer writer = codec.writer();
        List<GpuSample> samples = GpuSampleCases.golden().stream()
                .map(GpuSampleCases.Case::sample)
                .toList();

        List<ProducerRecord<byte[], byte[]>> records = samples.stream()
                .map(sample -> writer.record("gpuaas.gpu-samples", sample))
                .toList();

        for (int i = 0; i < samples.size(); i++) {
            ProducerRecord<byte[], byte[]> record = records.get(i);
            assertThat(new String(record.key(), StandardCharsets.UTF_8))
                    .isEqualTo(samples.get(i).deviceKey());
            assertThat(Topics.GPU_SAMPLES
                            .valueSerde()
                            .deserializer()
                            .deserialize(record.topic(), record.headers(), record.value()))
                    .isEqualTo(samples.get(i));
            assertThat(CloudEvents.header(record.headers(), CloudEvents.TYPE)).isEqualTo(GpuSampleCases.TYPE);
            assertThat(CloudEvents.header(record.headers(), CloudEvents.SOURCE)).isEqualTo(GpuSampleCases.SOURCE);
            assertThat(Instant.parse(CloudEvents.header(record.headers(), CloudEvents.TIME)))
                    .isBetween(Instant.now().minusSeconds(60), Instant.now());
        }
        assertThat(records)
                .extracting(r -> CloudEvents.header(r.headers(), CloudEvents.ID))
                .doesNotHaveDuplicates()
                .allSatisfy(id -> assertThat(UUID.fromString(id).version()).isEqualTo(4));
    }

    @Test
    void shouldReplaceHeadersTheRecordCarriedWhenSerializingIntoExistingHeaders() {
        RecordHeaders headers = new RecordHeaders();
        headers.add(CloudEvents.TYPE, "io.example.other".getBytes(StandardCharsets.UTF_8));
        headers.add(CloudEvents.ID, "copied-from-input".getBytes(StandardCharsets.UTF_8));

        byte[] body = codec.serializer()
                .serialize("t", headers, GpuSampleCases.golden().getFirst().sample());

        assertThat(headers.toArray())
                .extracting(h -> h.key())
                .containsExactly(
                        CloudEvents.SPECVERSION,
                        CloudEvents.ID,
                        CloudEvents.SOURCE,
                        CloudEvents.TYPE,
                        CloudEvents.TIME,
                        CloudEvents.CONTENT_TYPE);
        assertThat(GpuSampleCases.text(headers))
                .containsEntry(CloudEvents.TYPE, GpuSampleCases.TYPE)
                .containsEntry(CloudEvents.SPECVERSION, "1.0")
                .containsEntry(CloudEvents.CONTENT_TYPE, "application/json")
                .doesNotContainEntry(CloudEvents.ID, "copied-from-input");
        assertThat(Topics.GPU_SAMPLES.valueSerde().deserializer().deserialize("t", headers, body))
                .isEqualTo(GpuSampleCases.golden().getFirst().sample());
    }

    @Test
    void shouldWriteTheProcessSourceWhenTheTopicsSerializerIsUsed() {
        RecordHeaders headers = new RecordHeaders();
        CloudEvents.setProcessSource("/gpuaas/metrics-gateway");
        try {
            Topics.GPU_SAMPLES
                    .valueSerde()
                    .serializer()
                    .serialize("t", headers, GpuSampleCases.golden().getFirst().sample());
        } finally {
            CloudEvents.setProcessSource(CloudEvents.DEFAULT_SOURCE);
        }

        assertThat(CloudEvents.header(headers, CloudEvents.SOURCE)).isEqualTo("/gpuaas/metrics-gateway");
    }

    @Test
    void shouldWriteNothingWhenTheValueIsNull() {
        RecordHeaders headers = new RecordHeaders();

        assertThat(codec.serializer().serialize("t", headers, null)).isNull();
        assertThat(headers.toArray()).isEmpty();
    }
}
