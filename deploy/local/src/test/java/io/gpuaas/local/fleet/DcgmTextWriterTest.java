package io.gpuaas.local.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.gpu.GpuActivity;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DcgmTextWriterTest {

    private static final Instant START = Instant.parse("2026-11-22T12:00:00Z");
    private final FleetLayout layout = FleetLayout.of(16);
    private final DcgmTextWriter writer =
            new DcgmTextWriter(new UtilizationModel(Duration.ofMinutes(4), Duration.ofMinutes(5)));

    @Test
    void shouldServeParseablePrometheusTextWithHelpAndTypeForEveryFamilyWhenScraped() {
        PromText scrape = PromText.parse(writer.render(layout.nodes().get(0), Map.of(), START.plusSeconds(5)));

        assertThat(scrape.samples).isNotEmpty();
        assertThat(scrape.types)
                .containsEntry("DCGM_FI_PROF_GR_ENGINE_ACTIVE", "gauge")
                .containsEntry("DCGM_FI_DEV_GPU_UTIL", "gauge")
                .containsEntry("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", "counter");
        assertThat(scrape.named("DCGM_FI_DEV_GPU_UTIL")).hasSize(8);
    }

    @Test
    void shouldBoostTheSmClockWhenTheGpuIsBusyByTheSharedIdleThreshold() {
        // 2 % activity is busy for idle-reclaimer and metrics-gateway (threshold 1 %), so the clock is up too.
        assertThat(DcgmTextWriter.smClockMhz(0.02)).isEqualTo(1980);
        assertThat(DcgmTextWriter.smClockMhz(GpuActivity.DEFAULT_IDLE_THRESHOLD))
                .isEqualTo(345);
        assertThat(DcgmTextWriter.smClockMhz(0)).isEqualTo(345);
    }

    @Test
    void shouldUseTheLabelSetAndOrderOfARealExporterWhenAGpuIsWholeAndFree() throws IOException {
        PromText real = realExcerpt();
        PromText simulated = PromText.parse(writer.render(layout.nodes().get(0), Map.of(), START));

        List<String> realFree =
                List.copyOf(real.named("DCGM_FI_DEV_GPU_TEMP").get(1).labels().keySet());
        List<String> simulatedFree = List.copyOf(
                simulated.named("DCGM_FI_DEV_GPU_TEMP").get(1).labels().keySet());
        assertThat(simulatedFree).isEqualTo(realFree);
    }

    @Test
    void shouldAddPodNamespaceAndContainerLikeARealExporterWhenAGpuIsAttributedToAPod() throws IOException {
        GpuDevice gpu0 = layout.nodes().get(0).devices().get(0);
        Attribution pod = new Attribution(
                "llm-predictor-0",
                "team-b",
                "kserve-container",
                "uid-1",
                "team-b/InferenceService/llm",
                START,
                Optional.empty());

        PromText scrape = PromText.parse(writer.render(layout.nodes().get(0), Map.of(gpu0.key(), pod), START));

        PromText.Sample sample = scrape.named("DCGM_FI_DEV_GPU_TEMP").get(0);
        assertThat(List.copyOf(sample.labels().keySet()))
                .isEqualTo(List.copyOf(realExcerpt()
                        .named("DCGM_FI_DEV_GPU_TEMP")
                        .get(0)
                        .labels()
                        .keySet()));
        assertThat(sample.labels())
                .containsEntry("pod", "llm-predictor-0")
                .containsEntry("namespace", "team-b")
                .containsEntry("container", "kserve-container")
                .containsEntry("Hostname", "gpu-node-1");
        assertThat(scrape.named("DCGM_FI_DEV_GPU_TEMP").get(1).labels()).doesNotContainKey("pod");
    }

    @Test
    void shouldReportMigInstancesWithProfileAndInstanceIdAndWithoutGpuUtilWhenTheNodeIsPartitioned() {
        GpuNode migNode = layout.nodes().get(1);

        PromText scrape = PromText.parse(writer.render(migNode, Map.of(), START));

        List<PromText.Sample> engine = scrape.named("DCGM_FI_PROF_GR_ENGINE_ACTIVE");
        assertThat(engine).hasSize(14 + 9 + 6);
        assertThat(engine).allSatisfy(s -> assertThat(s.labels()).containsKeys("GPU_I_PROFILE", "GPU_I_ID"));
        assertThat(engine)
                .extracting(s -> s.labels().get("GPU_I_PROFILE"))
                .containsOnly("1g.18gb", "2g.35gb", "3g.71gb");
        assertThat(scrape.named("DCGM_FI_DEV_GPU_UTIL")).isEmpty();
    }

    @Test
    void shouldShowBusyEngineActivityOnlyOnDevicesOfABusyWorkloadWhenForcedBusy() {
        GpuNode migNode = layout.nodes().get(1);
        GpuDevice slice = migNode.devices().get(0);
        Attribution busy = new Attribution(
                "ray-worker-1",
                "team-a",
                "ray-worker",
                "uid-2",
                "team-a/RayCluster/demo",
                START,
                Attribution.parseForced("busy"));

        PromText scrape = PromText.parse(writer.render(migNode, Map.of(slice.key(), busy), START));

        List<PromText.Sample> engine = scrape.named("DCGM_FI_PROF_GR_ENGINE_ACTIVE");
        assertThat(engine.get(0).value()).isEqualTo(0.85);
        assertThat(engine.subList(1, engine.size()))
                .allSatisfy(s -> assertThat(s.value()).isZero());
    }

    @Test
    void shouldReportDecoderWorkOnlyOnTheGpuOfAVideoShapedWorkloadWhenScraped() {
        GpuNode node = layout.nodes().get(0);
        GpuDevice gpu0 = node.devices().get(0);
        GpuDevice gpu1 = node.devices().get(1);
        Attribution video = new Attribution(
                "transcode-0",
                "team-b",
                "kserve-container",
                "uid-3",
                "team-b/InferenceService/transcode",
                START,
                Attribution.parseForced("video"),
                true);
        Attribution train = new Attribution(
                "ray-worker-0", "team-a", "ray-worker", "uid-4", "team-a/RayCluster/demo", START, Optional.empty());

        PromText scrape =
                PromText.parse(writer.render(node, Map.of(gpu0.key(), video, gpu1.key(), train), START.plusSeconds(5)));

        List<PromText.Sample> decoder = scrape.named("DCGM_FI_DEV_DEC_UTIL");
        assertThat(decoder).hasSize(8);
        assertThat(decoder.get(0).value()).isBetween(40.0, 52.0);
        assertThat(decoder.subList(1, decoder.size()))
                .allSatisfy(s -> assertThat(s.value()).isZero());
        assertThat(scrape.named("DCGM_FI_DEV_ENC_UTIL"))
                .allSatisfy(s -> assertThat(s.value()).isZero());
        assertThat(scrape.named("DCGM_FI_PROF_GR_ENGINE_ACTIVE").get(0).value()).isEqualTo(0.0002);
    }

    @Test
    void shouldKeepEnergyCountersGrowingWhenScrapedRepeatedly() {
        GpuNode node = layout.nodes().get(0);
        double first = PromText.parse(writer.render(node, Map.of(), START))
                .named("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION")
                .get(0)
                .value();
        double later = PromText.parse(writer.render(node, Map.of(), START.plusSeconds(10)))
                .named("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION")
                .get(0)
                .value();

        // 10 s at the 75 W idle draw is 750,000 mJ.
        assertThat(later - first).isEqualTo(750_000);
    }

    private static PromText realExcerpt() throws IOException {
        try (InputStream in = DcgmTextWriterTest.class.getResourceAsStream("/dcgm/real-h100-excerpt.prom")) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            // The excerpt has no HELP/TYPE lines (the exporter was run without them); announce the one family it holds.
            return PromText.parse("# HELP DCGM_FI_DEV_GPU_TEMP GPU temperature (in C).\n"
                    + "# TYPE DCGM_FI_DEV_GPU_TEMP gauge\n" + text);
        }
    }
}
