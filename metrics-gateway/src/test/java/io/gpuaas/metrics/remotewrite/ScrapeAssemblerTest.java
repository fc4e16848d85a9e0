package io.gpuaas.metrics.remotewrite;

import static io.gpuaas.metrics.remotewrite.WriteRequests.series;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.metrics.GatewayHarness;
import io.gpuaas.metrics.dcgm.DcgmEndpoint;
import io.gpuaas.metrics.dcgm.DcgmTextParser;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ScrapeAssemblerTest {

    static final long T1 = Instant.parse("2026-11-22T12:00:00Z").toEpochMilli();
    private static final long T2 = T1 + 5_000;

    static ScrapeAssembler.Mapped map(List<WriteRequests.TimeSeries> series) {
        return map(series, false);
    }

    static ScrapeAssembler.Mapped map(List<WriteRequests.TimeSeries> series, boolean targetPodLabels) {
        byte[] request = WriteRequests.encode(series);
        ScrapeAssembler assembler =
                new ScrapeAssembler(new LabelSlots(List.of("node", "kubernetes_node"), targetPodLabels));
        WriteRequestReader.read(request, request.length, assembler);
        return assembler.result();
    }

    private static Map<String, String> gpu(String uuid, String node) {
        return Map.of("UUID", uuid, "gpu", "0", "node", node, "instance", "10.0.0.9:9400");
    }

    @Test
    void shouldPublishOneScrapePerNodeAndTimestampWhenARequestHoldsSeveralScrapes() {
        ScrapeAssembler.Mapped mapped = map(List.of(
                series("DCGM_FI_DEV_GPU_UTIL", gpu("GPU-a", "n1"), 50, T1),
                series("DCGM_FI_DEV_GPU_UTIL", gpu("GPU-b", "n2"), 10, T1),
                series("DCGM_FI_DEV_GPU_UTIL", gpu("GPU-a", "n1"), 60, T2),
                series("DCGM_FI_DEV_FB_USED", gpu("GPU-a", "n1"), 2048, T1)));

        assertThat(mapped.scrapes())
                .extracting(GpuScrape::node, GpuScrape::time)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("n1", Instant.ofEpochMilli(T1)),
                        org.assertj.core.groups.Tuple.tuple("n2", Instant.ofEpochMilli(T1)),
                        org.assertj.core.groups.Tuple.tuple("n1", Instant.ofEpochMilli(T2)));
        GpuScrape first = mapped.scrapes().getFirst();
        assertThat(first.devices()).singleElement().satisfies(d -> {
            assertThat(d.uuid()).isEqualTo("GPU-a");
            assertThat(d.utilization()).isEqualTo(0.5);
            assertThat(d.utilizationSource()).isEqualTo("GPU_UTIL");
            assertThat(d.memoryUsedMiB()).isEqualTo(2048.0);
        });
        assertThat(first.target()).isEqualTo("10.0.0.9:9400");
        assertThat(mapped.scrapes().get(2).devices().getFirst().utilization()).isEqualTo(0.6);
        assertThat(mapped.dcgmSamples()).isEqualTo(4);
        assertThat(mapped.devices()).isEqualTo(3);
        assertThat(mapped.invalidSeries()).isZero();
    }

    @Test
    void shouldCarryDecoderAndEncoderPercentWhenRemoteWriteSendsThem() {
        ScrapeAssembler.Mapped mapped = map(List.of(
                series("DCGM_FI_PROF_GR_ENGINE_ACTIVE", gpu("GPU-a", "n1"), 0.0002, T1),
                series("DCGM_FI_DEV_DEC_UTIL", gpu("GPU-a", "n1"), 46, T1),
                series("DCGM_FI_DEV_ENC_UTIL", gpu("GPU-a", "n1"), 0, T1),
                series("DCGM_FI_DEV_GPU_UTIL", gpu("GPU-b", "n1"), 0, T1),
                series("DCGM_FI_DEV_DEC_UTIL", gpu("GPU-b", "n1"), Double.NaN, T1)));

        assertThat(mapped.scrapes()).singleElement().satisfies(s -> assertThat(s.devices())
                .extracting(
                        GpuScrape.Device::uuid,
                        GpuScrape.Device::utilization,
                        GpuScrape.Device::decoderUtilPercent,
                        GpuScrape.Device::encoderUtilPercent)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("GPU-a", 0.0002, 46.0, 0.0),
                        org.assertj.core.groups.Tuple.tuple("GPU-b", 0.0, null, null)));
        assertThat(mapped.dcgmSamples()).isEqualTo(5);
    }

    @Test
    void shouldReportNoReadingWhenTheValueIsAStaleMarkerNanOrOutOfRange() {
        double staleMarker = Double.longBitsToDouble(0x7ff0000000000002L);
        ScrapeAssembler.Mapped mapped = map(List.of(
                series("DCGM_FI_DEV_GPU_UTIL", gpu("GPU-a", "n1"), staleMarker, T1),
                series("DCGM_FI_DEV_FB_USED", gpu("GPU-a", "n1"), 512, T1),
                series("DCGM_FI_PROF_GR_ENGINE_ACTIVE", gpu("GPU-b", "n1"), 1.7, T1),
                series("DCGM_FI_DEV_FB_USED", gpu("GPU-b", "n1"), -1, T1),
                series("DCGM_FI_DEV_POWER_USAGE", gpu("GPU-b", "n1"), Double.POSITIVE_INFINITY, T1),
                series("DCGM_FI_DEV_GPU_UTIL", gpu("GPU-c", "n1"), Double.NaN, T1),
                series("DCGM_FI_DEV_GPU_UTIL", gpu("GPU-c", "n1"), -3, T1 + 1)));

        // A stale or NaN utilization is no utilization: GPU-a is left out, never published as idle.
        assertThat(mapped.scrapes().getFirst().devices()).singleElement().satisfies(b -> {
            assertThat(b.uuid()).isEqualTo("GPU-b");
            assertThat(b.utilization()).isEqualTo(1.0);
            assertThat(b.memoryUsedMiB()).isNull();
            assertThat(b.powerWatts()).isNull();
        });
        // A negative utilization is a reading the contract cannot carry: published as none (doubt), not as 0.
        assertThat(mapped.scrapes().get(1).devices()).singleElement().satisfies(c -> {
            assertThat(c.utilization()).isNull();
            assertThat(c.utilizationSource()).isNull();
        });
        assertThat(mapped.partial()).isEqualTo(2);
    }

    @Test
    void shouldLeaveOutDevicesWhoseUtilizationWentInAnotherRequestWhenPrometheusSplitAScrape() {
        // Shards hash series: GPU-a's memory came in this request, its utilization in another one.
        ScrapeAssembler.Mapped mapped = map(List.of(
                series("DCGM_FI_DEV_FB_USED", gpu("GPU-a", "n1"), 100, T1),
                series("DCGM_FI_DEV_POWER_USAGE", gpu("GPU-a", "n1"), 60, T1),
                series("DCGM_FI_DEV_GPU_UTIL", gpu("GPU-b", "n1"), 0, T1),
                series("DCGM_FI_DEV_FB_USED", gpu("GPU-c", "n2"), 100, T1)));

        assertThat(mapped.scrapes()).singleElement().satisfies(s -> {
            assertThat(s.node()).isEqualTo("n1");
            assertThat(s.devices()).extracting(GpuScrape.Device::uuid).containsExactly("GPU-b");
        });
        assertThat(mapped.partial()).isEqualTo(2);
        assertThat(mapped.devices()).isEqualTo(1);
        assertThat(mapped.invalidSeries()).isZero();
    }

    @Test
    void shouldKeepMigInstancesApartWhenTheyShareTheParentUuid() {
        Map<String, String> parent = Map.of("UUID", "GPU-a", "node", "n1", "gpu", "0", "modelName", "NVIDIA A30");
        Map<String, String> mig =
                Map.of("UUID", "GPU-a", "node", "n1", "gpu", "0", "GPU_I_ID", "2", "GPU_I_PROFILE", "1g.6gb");

        GpuScrape scrape = map(List.of(
                        series("DCGM_FI_PROF_GR_ENGINE_ACTIVE", parent, 0.1, T1),
                        series("DCGM_FI_DEV_FB_USED", parent, 100, T1),
                        series("DCGM_FI_PROF_GR_ENGINE_ACTIVE", mig, 0.5, T1),
                        series("DCGM_FI_DEV_FB_USED", mig, 50, T1)))
                .scrapes()
                .getFirst();

        assertThat(scrape.devices()).hasSize(2);
        assertThat(scrape.devices().stream().map(scrape::deviceKey)).containsExactly("n1/GPU-a", "n1/GPU-a/2");
        assertThat(scrape.devices().get(1).migProfile()).isEqualTo("1g.6gb");
        assertThat(scrape.devices().get(1).utilization()).isEqualTo(0.5);
        assertThat(scrape.devices().get(1).memoryUsedMiB()).isEqualTo(50.0);
        assertThat(scrape.devices().get(0).modelName()).isEqualTo("NVIDIA A30");
        assertThat(scrape.devices().get(0).gpuIndex()).isZero();
    }

    @Test
    void shouldDropAndCountSeriesThatCannotNameADeviceWhileMappingTheRest() {
        ScrapeAssembler.Mapped mapped = map(List.of(
                series("DCGM_FI_DEV_GPU_UTIL", Map.of("node", "n1"), 50, T1),
                series("DCGM_FI_DEV_GPU_UTIL", Map.of("UUID", "GPU-a"), 50, T1),
                new WriteRequests.TimeSeries(
                        List.of(new WriteRequests.Label("job", "x")), List.of(new WriteRequests.Sample(1, T1))),
                series("up", Map.of("job", "dcgm", "instance", "a:1"), 1, T1),
                series("DCGM_FI_DEV_GPU_UTIL", gpu("GPU-b", "n1"), 20, T1)));

        assertThat(mapped.invalidSeries()).isEqualTo(3);
        assertThat(mapped.firstInvalid()).isEqualTo("series 1: a DCGM_FI_DEV_GPU_UTIL series without a UUID label");
        assertThat(mapped.series()).isEqualTo(5);
        assertThat(mapped.samples()).isEqualTo(5);
        assertThat(mapped.scrapes()).singleElement().satisfies(s -> assertThat(s.devices())
                .singleElement()
                .satisfies(d -> assertThat(d.uuid()).isEqualTo("GPU-b")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/dcgm/dcgm-exporter-h100x8.prom", "/dcgm/dcgm-exporter-t4.prom"})
    void shouldYieldExactlyTheTextParsersDevicesWhenPrometheusForwardsTheSameScrape(String resource) {
        byte[] text = GatewayHarness.resource(resource);
        GpuScrape parsed = new DcgmTextParser()
                .parse(text, text.length, Instant.ofEpochMilli(T1), new DcgmEndpoint("node-a", "10.0.3.7", "x"))
                .scrapes()
                .getFirst();

        GpuScrape forwarded = map(ExpositionSeries.scrape(
                        new String(text, StandardCharsets.UTF_8),
                        Map.of("instance", "10.0.3.7:9400", "job", "dcgm-exporter", "node", "node-a"),
                        T1))
                .scrapes()
                .getFirst();

        assertThat(forwarded.node()).isEqualTo(parsed.node());
        assertThat(forwarded.time()).isEqualTo(parsed.time());
        assertThat(forwarded.devices()).isNotEmpty().containsExactlyElementsOf(parsed.devices());
    }

    @Test
    void shouldReadTheRealH100ScrapeAsTheTextParserDoesWhenPrometheusForwardsIt() {
        String text = new String(GatewayHarness.resource("/dcgm/dcgm-exporter-h100x8.prom"), StandardCharsets.UTF_8);
        List<WriteRequests.TimeSeries> series = ExpositionSeries.scrape(
                text, Map.of("instance", "10.0.3.7:9400", "job", "dcgm-exporter", "node", "gpu-node-1"), T1);

        ScrapeAssembler.Mapped mapped = map(series);

        assertThat(mapped.invalidSeries()).isZero();
        assertThat(mapped.series()).isEqualTo(series.size());
        GpuScrape scrape = mapped.scrapes().getFirst();
        assertThat(mapped.scrapes()).hasSize(1);
        assertThat(scrape.node()).isEqualTo("gpu-node-1");
        assertThat(scrape.devices()).hasSize(8);
        GpuScrape.Device vllm = scrape.devices().getFirst();
        assertThat(vllm.gpuIndex()).isZero();
        assertThat(vllm.pod()).isEqualTo("vllm-agg-0-vllmdecodeworker-s65j5");
        assertThat(vllm.namespace()).isEqualTo("dynamo-workload");
        assertThat(vllm.container()).isEqualTo("main");
        assertThat(vllm.utilization()).isEqualTo(0.0);
        assertThat(vllm.powerWatts()).isEqualTo(113.611);
        assertThat(vllm.hostnameLabel()).isEqualTo("gpu-node-1");
        assertThat(scrape.devices().get(7).attributed()).isFalse();
        assertThat(scrape.devices().get(7).uuid()).isEqualTo("GPU-04d228d3-3b5a-3534-f5cf-969706647d56");
        assertThat(scrape.devices()).extracting(GpuScrape.Device::modelName).containsOnly("NVIDIA H100 80GB HBM3");
    }
}
