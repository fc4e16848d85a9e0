package io.gpuaas.events.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.CloudEventHeaders;
import io.gpuaas.events.CloudEvents;
import io.gpuaas.events.Json;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serializer;
import org.junit.jupiter.api.Test;

/** The codec's writer against Jackson's output ({@code Json.mapper()}) and the contract's reader. */
class GpuScrapeCodecWriterTest {

    private final GpuScrapeCodec codec = new GpuScrapeCodec(CloudEventHeaders.of(GpuScrapeCases.SOURCE));

    /** Doubles on both sides of the integral fast path (10^7, -0.0, fractions, exponents) and no time at all. */
    private static final List<GpuScrape> SCRAPES_AND_NUMBERS = Stream.concat(
                    GpuScrapeCases.golden().stream().map(GpuScrapeCases.Case::scrape),
                    Stream.of(
                            new GpuScrape(
                                    null,
                                    "h",
                                    null,
                                    List.of(
                                            GpuScrapeCases.device("GPU-z", -0.0, "GPU_UTIL", 9999999.0, 1.0E7, -3.0, 7),
                                            GpuScrapeCases.device(
                                                    "GPU-w",
                                                    0.001,
                                                    "GR_ENGINE_ACTIVE",
                                                    123456.0,
                                                    1.0E-3,
                                                    2.5E-4,
                                                    null))),
                            new GpuScrape(
                                    Instant.parse("2026-11-21T17:30:00.123456Z"),
                                    null,
                                    "",
                                    List.of(GpuScrapeCases.device(null, null, null, null, 12.75, 1.0E22, -1))),
                            new GpuScrape(
                                    Instant.EPOCH,
                                    "",
                                    "t",
                                    List.of(
                                            new GpuScrape.Device(
                                                    "",
                                                    -1,
                                                    "",
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
                                                    123_456_789_012.0),
                                            GpuScrapeCases.device("u", null, null, null, null, null, null)))))
            .toList();

    @Test
    void shouldWriteTheSameJsonAsTheContractsMapperWhenOneWriterEncodesManyScrapes() throws Exception {
        GpuScrapeCodec.Writer writer = codec.writer();
        Serializer<GpuScrapeEvent> serializer = codec.serializer();
        for (GpuScrape scrape : SCRAPES_AND_NUMBERS) {
            String expected = new String(Json.mapper().writeValueAsBytes(scrape), StandardCharsets.UTF_8);

            // One writer across scrapes: its reused buffer and kept time must never leak into the next scrape.
            assertThat(new String(writer.body(scrape), StandardCharsets.UTF_8)).isEqualTo(expected);
            assertThat(new String(serializer.serialize("t", scrape), StandardCharsets.UTF_8))
                    .isEqualTo(expected);
            if (scrape.node() != null) {
                assertThat(new String(writer.record("t", scrape).value(), StandardCharsets.UTF_8))
                        .isEqualTo(expected);
            }
        }
    }

    @Test
    void shouldWriteABodyLargerThanTheInitialBufferWhenANodeHasManyMigInstances() throws Exception {
        GpuScrape.Device[] devices = new GpuScrape.Device[56];
        Arrays.setAll(
                devices,
                i -> new GpuScrape.Device(
                        "GPU-" + i / 7,
                        i / 7,
                        "NVIDIA H200",
                        String.valueOf(i % 7),
                        "1g.18gb",
                        "dcgm-exporter-wwwjh",
                        "team-" + i,
                        "pod-" + i,
                        "main",
                        0.5,
                        "GR_ENGINE_ACTIVE",
                        1024.0,
                        17408.0,
                        null));
        GpuScrape scrape = new GpuScrape(GpuScrapeCases.SCRAPE, "gpu-node-1", "t", List.of(devices));

        byte[] body = codec.writer().body(scrape);

        assertThat(body.length).isGreaterThan(10_000);
        assertThat(body).isEqualTo(Json.mapper().writeValueAsBytes(scrape));
        assertThat(GpuScrapeCases.topicReader().deserialize("t", GpuScrapeCases.typed(GpuScrapeCases.TYPE), body))
                .isEqualTo(scrape);
    }

    @Test
    void shouldLeaveNonFiniteReadingsOutWhenAnExporterReportsThem() {
        GpuScrape scrape = new GpuScrape(
                GpuScrapeCases.SCRAPE,
                "h",
                null,
                List.of(GpuScrapeCases.device(
                        "u", Double.NaN, null, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1.0, null)));

        byte[] body = codec.writer().body(scrape);

        assertThat(new String(body, StandardCharsets.UTF_8))
                .isEqualTo("{\"time\":\"2026-11-21T17:30:00.125Z\",\"node\":\"h\",\"devices\":[{\"uuid\":\"u\","
                        + "\"powerWatts\":1.0}]}");
        assertThat(GpuScrapeCases.topicReader().deserialize("t", GpuScrapeCases.typed(GpuScrapeCases.TYPE), body))
                .isEqualTo(new GpuScrape(
                        GpuScrapeCases.SCRAPE,
                        "h",
                        null,
                        List.of(GpuScrapeCases.device("u", null, null, null, null, 1.0, null))));
    }

    @Test
    void shouldBuildNodeKeyedCloudEventRecordsWhenOneWriterEncodesManyScrapes() {
        GpuScrapeCodec.Writer writer = codec.writer();
        List<GpuScrape> scrapes = GpuScrapeCases.golden().stream()
                .map(GpuScrapeCases.Case::scrape)
                .toList();

        List<ProducerRecord<byte[], byte[]>> records = scrapes.stream()
                .map(scrape -> writer.record("gpuaas.gpu-samples", scrape))
                .toList();

        for (int i = 0; i < scrapes.size(); i++) {
            ProducerRecord<byte[], byte[]> record = records.get(i);
            assertThat(new String(record.key(), StandardCharsets.UTF_8))
                    .isEqualTo(scrapes.get(i).node());
            assertThat(GpuScrapeCases.topicReader().deserialize(record.topic(), record.headers(), record.value()))
                    .isEqualTo(scrapes.get(i));
            assertThat(CloudEvents.header(record.headers(), CloudEvents.TYPE)).isEqualTo(GpuScrapeCases.TYPE);
            assertThat(CloudEvents.header(record.headers(), CloudEvents.SOURCE)).isEqualTo(GpuScrapeCases.SOURCE);
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
        GpuScrape scrape = GpuScrapeCases.golden().getFirst().scrape();

        byte[] body = codec.serializer().serialize("t", headers, scrape);

        assertThat(headers.toArray())
                .extracting(h -> h.key())
                .containsExactly(
                        CloudEvents.SPECVERSION,
                        CloudEvents.ID,
                        CloudEvents.SOURCE,
                        CloudEvents.TYPE,
                        CloudEvents.TIME,
                        CloudEvents.CONTENT_TYPE);
        assertThat(GpuScrapeCases.text(headers))
                .containsEntry(CloudEvents.TYPE, GpuScrapeCases.TYPE)
                .containsEntry(CloudEvents.SPECVERSION, "1.0")
                .containsEntry(CloudEvents.CONTENT_TYPE, "application/json")
                .doesNotContainEntry(CloudEvents.ID, "copied-from-input");
        assertThat(GpuScrapeCases.topicReader().deserialize("t", headers, body)).isEqualTo(scrape);
    }

    @Test
    void shouldWriteTheProcessSourceWhenTheTopicsSerializerIsUsed() {
        RecordHeaders headers = new RecordHeaders();
        CloudEvents.setProcessSource("/gpuaas/metrics-gateway");
        try {
            GpuScrapeCases.topicSerde()
                    .serializer()
                    .serialize("t", headers, GpuScrapeCases.golden().getFirst().scrape());
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
