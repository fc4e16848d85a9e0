package io.gpuaas.reclaim.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.reclaim.metrics.ReclaimerMetrics;
import io.gpuaas.reclaim.model.AttributedSample;
import io.gpuaas.reclaim.model.Owner;
import io.gpuaas.reclaim.model.OwnerLookup;
import io.gpuaas.reclaim.model.WorkloadSamples;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.Test;

class SampleAttributorTest {

    private static final Instant T = Instant.parse("2026-11-22T12:00:05Z");
    private static final WorkloadRef LLM = new WorkloadRef("team-a", "InferenceService", "llm");
    private static final WorkloadRef RAY = new WorkloadRef("team-b", "RayCluster", "train");

    private final ReclaimerMetrics metrics = new ReclaimerMetrics(new PrometheusRegistry());
    private final Map<String, Owner> pods = Map.of(
            "team-a/llm-predictor-0", new Owner(LLM, "predictor", 1_000L, 1),
            "team-b/train-worker-0", new Owner(RAY, "workers", 2_000L, 2));
    private final OwnerLookup owners = lookup(pods);

    @Test
    void shouldGroupTheAttributedDevicesOfAScrapeByWorkloadWhenANodeIsShared() {
        GpuScrape scrape = new GpuScrape(
                T,
                "gpu-node-1",
                "10.0.3.7:9400",
                List.of(
                        device("GPU-a", null, "team-a", "llm-predictor-0", 0.01),
                        device("GPU-b", "3", "team-b", "train-worker-0", 0.9),
                        device("GPU-b", "4", "team-b", "train-worker-0", null),
                        device("GPU-c", null, null, null, 0.0),
                        device("GPU-d", null, "team-c", "notebook-0", 0.5)));
        List<KeyValue<String, WorkloadSamples>> out = new ArrayList<>();

        new SampleAttributor(owners, metrics).attribute(scrape, (k, v) -> out.add(KeyValue.pair(k, v)));

        assertThat(out).extracting(kv -> kv.key).containsExactly(LLM.key(), RAY.key());
        assertThat(out).extracting(kv -> kv.value.workload()).containsExactly(LLM, RAY);
        List<AttributedSample> samples =
                out.stream().flatMap(kv -> kv.value.samples().stream()).toList();
        assertThat(samples)
                .extracting(AttributedSample::device)
                .containsExactly("gpu-node-1/GPU-a", "gpu-node-1/GPU-b/3", "gpu-node-1/GPU-b/4");
        assertThat(samples).extracting(AttributedSample::timeMillis).containsOnly(T.toEpochMilli());
        assertThat(samples).extracting(AttributedSample::utilization).containsExactly(0.01, 0.9, null);
        assertThat(samples.get(1))
                .isEqualTo(new AttributedSample(
                        RAY, "gpu-node-1/GPU-b/3", "train-worker-0", "workers", T.toEpochMilli(), 0.9, 2_000L));
        assertThat(metrics.attributedSamples()).isEqualTo(3);
    }

    @Test
    void shouldFlagVideoWorkAndGpuUtilOnlyReadingsWhenTheScrapeCarriesThem() {
        GpuScrape.Device decoding =
                device("GPU-a", null, "team-a", "llm-predictor-0", 0.0002).withMedia(46.0, 0.0);
        GpuScrape.Device gpuUtil = new GpuScrape.Device(
                "GPU-b",
                1,
                "NVIDIA H200",
                null,
                null,
                null,
                "team-a",
                "llm-predictor-0",
                "main",
                0.0,
                "GPU_UTIL",
                1.0,
                1.0,
                1.0);
        List<KeyValue<String, WorkloadSamples>> out = new ArrayList<>();

        new SampleAttributor(owners, metrics)
                .attribute(
                        new GpuScrape(T, "gpu-node-1", null, List.of(decoding, gpuUtil)),
                        (k, v) -> out.add(KeyValue.pair(k, v)));

        assertThat(out.getFirst().value.samples())
                .extracting(AttributedSample::mediaBusy, AttributedSample::gpuUtilOnly)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(true, false),
                        org.assertj.core.groups.Tuple.tuple(false, true));
    }

    @Test
    void shouldForwardNothingWhenNoDeviceOfTheScrapeBelongsToAReclaimableWorkload() {
        GpuScrape scrape = new GpuScrape(
                T,
                "gpu-node-2",
                null,
                List.of(device("GPU-x", null, null, null, 0.0), device("GPU-y", null, "ns", "p", 0.0)));
        List<KeyValue<String, WorkloadSamples>> out = new ArrayList<>();

        new SampleAttributor(owners, metrics).attribute(scrape, (k, v) -> out.add(KeyValue.pair(k, v)));
        new SampleAttributor(owners, metrics)
                .attribute(new GpuScrape(T, "gpu-node-3", null, List.of()), (k, v) -> out.add(KeyValue.pair(k, v)));

        assertThat(out).isEmpty();
        assertThat(metrics.attributedSamples()).isZero();
    }

    private static GpuScrape.Device device(String uuid, String instance, String ns, String pod, Double utilization) {
        return new GpuScrape.Device(
                uuid,
                0,
                "NVIDIA H200",
                instance,
                null,
                "dcgm-exporter-wwwjh",
                ns,
                pod,
                pod == null ? null : "main",
                utilization,
                utilization == null ? null : "GR_ENGINE_ACTIVE",
                1.0,
                1.0,
                1.0);
    }

    private static OwnerLookup lookup(Map<String, Owner> pods) {
        return new OwnerLookup() {
            @Override
            public Optional<Owner> ownerOf(String namespace, String pod) {
                return Optional.ofNullable(pods.get(namespace + "/" + pod));
            }

            @Override
            public List<String> podsOf(WorkloadRef workload, String group) {
                return List.of();
            }

            @Override
            public Map<String, Integer> gpusPerPod(WorkloadRef workload) {
                return Map.of();
            }
        };
    }
}
