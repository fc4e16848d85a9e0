package io.gpuaas.events.gpu;

import io.gpuaas.events.CloudEventDeserializer;
import io.gpuaas.events.CloudEventHeaders;
import io.gpuaas.events.CloudEvents;
import io.gpuaas.events.EventSerdes;
import io.gpuaas.events.EventTypes;
import io.gpuaas.events.SchemaValidation;
import io.gpuaas.events.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;

/** The fixed scrapes the codec's golden files pin, and helpers the codec's tests share. */
final class GpuScrapeCases {

    static final String TOPIC = "gpuaas.gpu-samples";
    static final String TYPE = EventTypes.typeOf(GpuScrape.class);
    static final Instant SCRAPE = Instant.parse("2026-11-21T17:30:00.125Z");
    /** When the golden records were "serialized": their {@code ce_time}. */
    static final Instant WRITTEN = Instant.parse("2026-11-21T17:30:01.250Z");

    static final String SOURCE = "/gpuaas/metrics-gateway";

    /** A golden case: a scrape, and whether its body is in the shape the fast reader parses itself. */
    record Case(String name, GpuScrape scrape, boolean fastShape) {
        @Override
        public String toString() {
            return name;
        }
    }

    private GpuScrapeCases() {}

    static List<Case> golden() {
        return List.of(
                new Case("mig-and-full-gpu", migAndFullGpu(), true),
                new Case("eight-gpus", eightGpus(), true),
                new Case(
                        "required-only",
                        new GpuScrape(
                                Instant.parse("2024-02-29T23:59:59.999999999Z"),
                                "n",
                                null,
                                List.of(device("u", null, null, null, null, null, null))),
                        true),
                new Case("no-devices", new GpuScrape(Instant.parse("2026-11-21T17:30:00Z"), "n", "t", List.of()), true),
                new Case("number-spellings", numberSpellings(), true),
                new Case("escaped-labels", escapedLabels(), false));
    }

    /**
     * An A30 node's MIG instance (attributed) beside an unattributed full GPU, as one exporter pod reports them; the
     * full GPU decodes video (46 %, as a real RTX scrape read) with its engines idle.
     */
    static GpuScrape migAndFullGpu() {
        return new GpuScrape(
                SCRAPE,
                "gpu-node-1",
                "10.0.3.7:9400",
                List.of(
                        new GpuScrape.Device(
                                "GPU-5d2c1f7e-0000-4000-8000-00000000000a",
                                0,
                                "NVIDIA A30",
                                "1",
                                "2g.12gb",
                                "dcgm-exporter-wwwjh",
                                "team-a",
                                "train-worker-0",
                                "pytorch",
                                0.42,
                                "GR_ENGINE_ACTIVE",
                                2048.0,
                                10240.0,
                                31.5),
                        new GpuScrape.Device(
                                "GPU-0a1b",
                                1,
                                "NVIDIA GeForce RTX 3090",
                                null,
                                null,
                                "dcgm-exporter-wwwjh",
                                null,
                                null,
                                null,
                                1.0,
                                "GPU_UTIL",
                                0.0,
                                24259.0,
                                69.125,
                                46.0,
                                0.0)));
    }

    /** A busy H100 node: eight attributed GPUs, what a scrape of the design fleet looks like. */
    static GpuScrape eightGpus() {
        List<GpuScrape.Device> devices = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            devices.add(new GpuScrape.Device(
                    "GPU-h100-" + i,
                    i,
                    "NVIDIA H100 80GB HBM3",
                    null,
                    null,
                    "gpu-node-17",
                    "team-b",
                    "llm-" + i / 4,
                    "main",
                    0.125 * i,
                    "GR_ENGINE_ACTIVE",
                    1000.0 * i,
                    81559.0 - 1000.0 * i,
                    300.0 + i));
        }
        return new GpuScrape(Instant.parse("2026-11-21T17:30:05Z"), "gpu-node-17", "10.0.3.17:9400", devices);
    }

    private static GpuScrape numberSpellings() {
        return new GpuScrape(
                Instant.parse("2026-11-21T17:30:00.000001Z"),
                "h",
                "10.0.0.1:9400/custom",
                List.of(
                        new GpuScrape.Device(
                                "GPU-y",
                                7,
                                "Tesla T4",
                                null,
                                null,
                                null,
                                "ns",
                                "p",
                                "c",
                                1.0E-7,
                                "GR_ENGINE_ACTIVE",
                                9999999.0,
                                1.5E10,
                                0.001),
                        device("GPU-z", 0.0, "GPU_UTIL", 1.0E7, 0.5, 123_456_789_012.0, 1)));
    }

    private static GpuScrape escapedLabels() {
        return new GpuScrape(
                SCRAPE,
                "nöde-1",
                "t",
                List.of(new GpuScrape.Device(
                        "GPU-ü",
                        1,
                        "NVIDIA \"H200\" \\ x",
                        null,
                        null,
                        "host\tname",
                        "team-b",
                        "caf\u00e9-0\n\t\u0001\u007f",
                        "main",
                        0.0,
                        "GPU_UTIL",
                        1.0,
                        2.0,
                        3.0)));
    }

    /** A device with only its identity and readings set. */
    static GpuScrape.Device device(
            String uuid, Double utilization, String source, Double used, Double free, Double power, Integer index) {
        return new GpuScrape.Device(
                uuid, index, null, null, null, null, null, null, null, utilization, source, used, free, power);
    }

    /** The topic's serde, as registered. */
    static Serde<GpuScrapeEvent> topicSerde() {
        return Topics.GPU_SAMPLES.valueSerde();
    }

    /** What the topic's consumers read with: the codec and the tombstone rule. */
    static Deserializer<GpuScrapeEvent> topicReader() {
        return EventSerdes.valueDeserializer(Topics.GPU_SAMPLES);
    }

    /** What the codec falls back to: the generic reader with full validation and the tombstone rule. */
    static Deserializer<GpuScrapeEvent> genericReader() {
        return EventSerdes.valueDeserializer(
                Topics.GPU_SAMPLES, new CloudEventDeserializer<>(GpuScrapeEvent.class, SchemaValidation.FULL));
    }

    /** Headers that are the same on every run: a fixed clock, ids from a seeded generator. */
    static CloudEventHeaders fixedHeaders() {
        Random ids = new Random(18);
        return new CloudEventHeaders(SOURCE, InstantSource.fixed(WRITTEN), () -> ids);
    }

    /** Headers carrying only {@code ce_type}, what a reader needs. */
    static RecordHeaders typed(String type) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(CloudEvents.TYPE, type.getBytes(StandardCharsets.UTF_8));
        return headers;
    }

    /** Every header value as text, by name, in the order written (a name written twice shows its last value). */
    static Map<String, String> text(org.apache.kafka.common.header.Headers headers) {
        Map<String, String> out = new LinkedHashMap<>();
        headers.forEach(h -> out.put(h.key(), new String(h.value(), StandardCharsets.UTF_8)));
        return out;
    }
}
