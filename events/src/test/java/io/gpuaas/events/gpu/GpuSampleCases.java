package io.gpuaas.events.gpu;

import io.gpuaas.events.CloudEventHeaders;
import io.gpuaas.events.CloudEvents;
import io.gpuaas.events.EventTypes;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.common.header.internals.RecordHeaders;

/** The fixed samples the codec's golden files pin, and helpers the codec's tests share. */
final class GpuSampleCases {

    static final String TOPIC = "gpuaas.gpu-samples";
    static final String TYPE = EventTypes.typeOf(GpuSample.class);
    static final Instant SCRAPE = Instant.parse("2026-11-21T17:30:00.125Z");
    /** When the golden records were "serialized": their {@code ce_time}. */
    static final Instant WRITTEN = Instant.parse("2026-11-21T17:30:01.250Z");

    static final String SOURCE = "/gpuaas/metrics-gateway";

    /** A golden case: a sample, and whether its body is in the shape the fast reader parses itself. */
    record Case(String name, GpuSample sample, boolean fastShape) {
        @Override
        public String toString() {
            return name;
        }
    }

    private GpuSampleCases() {}

    static List<Case> golden() {
        return List.of(
                new Case(
                        "mig-attributed",
                        new GpuSample(
                                SCRAPE,
                                "gpu-node-1",
                                "GPU-5d2c1f7e-0000-4000-8000-00000000000a",
                                2,
                                "NVIDIA H200",
                                "3",
                                "2g.35gb",
                                "team-a",
                                "train-worker-0",
                                "pytorch",
                                0.42,
                                "GR_ENGINE_ACTIVE",
                                20480.0,
                                15360.0,
                                301.5),
                        true),
                new Case(
                        "full-gpu-unattributed",
                        new GpuSample(
                                Instant.parse("2026-11-21T17:30:00Z"),
                                "gpu-node-17",
                                "GPU-0a1b",
                                0,
                                "NVIDIA H100 80GB HBM3",
                                null,
                                null,
                                null,
                                null,
                                null,
                                1.0,
                                "GPU_UTIL",
                                0.0,
                                81559.0,
                                69.125),
                        true),
                new Case(
                        "required-only",
                        new GpuSample(
                                Instant.parse("2024-02-29T23:59:59.999999999Z"),
                                "n",
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
                                null),
                        true),
                new Case(
                        "number-spellings",
                        new GpuSample(
                                Instant.parse("2026-11-21T17:30:00.000001Z"),
                                "h",
                                "GPU-y",
                                7,
                                "Tesla T4",
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
                        true),
                new Case(
                        "escaped-labels",
                        new GpuSample(
                                SCRAPE,
                                "nöde-1",
                                "GPU-ü",
                                1,
                                "NVIDIA \"H200\" \\ x",
                                null,
                                null,
                                "team-b",
                                "caf\u00e9-0\n\t\u0001\u007f",
                                "main",
                                0.0,
                                "GPU_UTIL",
                                1.0,
                                2.0,
                                3.0),
                        false));
    }

    /** Headers that are the same on every run: a fixed clock, ids from a seeded generator. */
    static CloudEventHeaders fixedHeaders() {
        Random ids = new Random(15);
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
