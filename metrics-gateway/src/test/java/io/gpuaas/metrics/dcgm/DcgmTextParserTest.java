package io.gpuaas.metrics.dcgm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class DcgmTextParserTest {

    private static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");
    private static final String HOST = "10.0.0.9";
    private final DcgmTextParser parser = new DcgmTextParser();

    @Test
    void shouldReadTheRealT4ScrapeWhenHelpAndTypeLinesAreInterleaved() throws IOException {
        DcgmScrape scrape = parseResource("dcgm-exporter-t4.prom");

        assertThat(scrape.badLines()).isZero();
        assertThat(scrape.lines()).isEqualTo(16);
        assertThat(ScrapedDevice.all(scrape)).singleElement().satisfies(s -> {
            assertThat(s.deviceKey()).isEqualTo("424773df46e0/GPU-20c56d28-0da5-6d26-a36a-e7af1ce2586e");
            assertThat(s.gpuIndex()).isZero();
            assertThat(s.modelName()).isEqualTo("Tesla T4");
            assertThat(s.utilization()).isEqualTo(0.0);
            assertThat(s.utilizationSource()).isEqualTo("GPU_UTIL");
            assertThat(s.memoryUsedMiB()).isEqualTo(0.0);
            assertThat(s.memoryFreeMiB()).isEqualTo(15109.0);
            assertThat(s.powerWatts()).isEqualTo(8.969);
            assertThat(s.device().decoderUtilPercent()).isEqualTo(0.0);
            assertThat(s.device().encoderUtilPercent()).isEqualTo(0.0);
            assertThat(s.attributed()).isFalse();
            assertThat(s.gpuInstanceId()).isNull();
            assertThat(s.time()).isEqualTo(NOW);
        });
    }

    @Test
    void shouldAttributeOnlyThePodsGpuWhenTheRealH100NodeHasOneAllocatedGpu() throws IOException {
        DcgmScrape scrape = parseResource("dcgm-exporter-h100x8.prom");

        assertThat(scrape.badLines()).isZero();
        assertThat(ScrapedDevice.all(scrape)).hasSize(8);
        Map<Integer, ScrapedDevice> byIndex = ScrapedDevice.all(scrape).stream()
                .collect(Collectors.toMap(ScrapedDevice::gpuIndex, Function.identity()));
        ScrapedDevice vllm = byIndex.get(0);
        assertThat(vllm.pod()).isEqualTo("vllm-agg-0-vllmdecodeworker-s65j5");
        assertThat(vllm.namespace()).isEqualTo("dynamo-workload");
        assertThat(vllm.container()).isEqualTo("main");
        assertThat(vllm.utilization()).isEqualTo(0.0);
        assertThat(vllm.powerWatts()).isEqualTo(113.611);
        assertThat(vllm.deviceKey()).startsWith("gpu-node-1/");
        assertThat(vllm.device().hostnameLabel()).isEqualTo("gpu-node-1");
        assertThat(byIndex.get(7).attributed()).isFalse();
        assertThat(byIndex.get(7).uuid()).isEqualTo("GPU-04d228d3-3b5a-3534-f5cf-969706647d56");
        assertThat(ScrapedDevice.all(scrape))
                .extracting(ScrapedDevice::modelName)
                .containsOnly("NVIDIA H100 80GB HBM3");
    }

    @Test
    void shouldCarryDecoderAndEncoderPercentWhenAGpuOnlyDecodesVideo() {
        DcgmScrape scrape = parser.parse("""
                DCGM_FI_PROF_GR_ENGINE_ACTIVE{gpu="0",UUID="GPU-rtx",Hostname="n1",pod="transcode-0",namespace="team-v"} 0.0002
                DCGM_FI_DEV_DEC_UTIL{gpu="0",UUID="GPU-rtx",Hostname="n1",pod="transcode-0",namespace="team-v"} 46
                dcgm_fi_dev_enc_util{gpu="0",UUID="GPU-rtx",Hostname="n1",pod="transcode-0",namespace="team-v"} 3
                DCGM_FI_DEV_GPU_UTIL{gpu="1",UUID="GPU-neg",Hostname="n1"} 0
                DCGM_FI_DEV_DEC_UTIL{gpu="1",UUID="GPU-neg",Hostname="n1"} -1
                DCGM_FI_DEV_ENC_UTIL{gpu="1",UUID="GPU-neg",Hostname="n1"} 250
                DCGM_FI_DEV_GPU_UTIL{gpu="2",UUID="GPU-none",Hostname="n1"} 0
                """, NOW, HOST);

        assertThat(ScrapedDevice.all(scrape))
                .extracting(
                        ScrapedDevice::uuid,
                        d -> d.device().utilization(),
                        d -> d.device().decoderUtilPercent(),
                        d -> d.device().encoderUtilPercent())
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("GPU-rtx", 0.0002, 46.0, 3.0),
                        // Negative is "could not read", past 100 is clamped: the scrape stays within the contract.
                        org.assertj.core.groups.Tuple.tuple("GPU-neg", 0.0, null, 100.0),
                        org.assertj.core.groups.Tuple.tuple("GPU-none", 0.0, null, null));
    }

    @Test
    void shouldAcceptLowerCaseHostnameAndUuidLabelsWhenTheExporterWritesThem() {
        DcgmScrape scrape = parser.parse("""
                DCGM_FI_DEV_GPU_UTIL{gpu="1",uuid="GPU-abc",hostname="node-7"} 42
                """, NOW, HOST);

        assertThat(ScrapedDevice.all(scrape)).singleElement().satisfies(s -> {
            assertThat(s.deviceKey()).isEqualTo("node-7/GPU-abc");
            assertThat(s.utilization()).isEqualTo(0.42);
        });
    }

    @Test
    void shouldReportNegativeMemoryAndPowerAsMissingWhenTheExporterCouldNotReadThem() {
        DcgmScrape scrape = parser.parse("""
                DCGM_FI_DEV_GPU_UTIL{gpu="0",UUID="GPU-neg",Hostname="node-1"} 10
                DCGM_FI_DEV_FB_USED{gpu="0",UUID="GPU-neg",Hostname="node-1"} -1
                DCGM_FI_DEV_FB_FREE{gpu="0",UUID="GPU-neg",Hostname="node-1"} 2048
                DCGM_FI_DEV_POWER_USAGE{gpu="0",UUID="GPU-neg",Hostname="node-1"} -5.5
                """, NOW, HOST);

        assertThat(ScrapedDevice.all(scrape)).singleElement().satisfies(s -> {
            assertThat(s.memoryUsedMiB()).isNull();
            assertThat(s.powerWatts()).isNull();
            assertThat(s.memoryFreeMiB()).isEqualTo(2048.0);
            assertThat(s.utilization()).isEqualTo(0.10);
        });
    }

    @Test
    void shouldReadPodNameAndLowerCaseMetricNamesWhenTheExporterRunsInOldNamespaceMode() {
        DcgmScrape scrape = parser.parse("""
                # TYPE dcgm_fi_dev_gpu_util gauge
                dcgm_fi_dev_gpu_util{gpu="0",UUID="GPU-1",Hostname="n1",pod_name="w-0",pod_namespace="team-a",container_name="ray"} 75
                dcgm_fi_dev_fb_used{gpu="0",UUID="GPU-1",Hostname="n1",pod_name="w-0",pod_namespace="team-a",container_name="ray"} 1024
                dcgm_power_usage{gpu="0",uuid="GPU-1",Hostname="n1"} 250.5
                """, NOW, HOST);

        assertThat(ScrapedDevice.all(scrape)).singleElement().satisfies(s -> {
            assertThat(s.pod()).isEqualTo("w-0");
            assertThat(s.namespace()).isEqualTo("team-a");
            assertThat(s.container()).isEqualTo("ray");
            assertThat(s.utilization()).isEqualTo(0.75);
            assertThat(s.memoryUsedMiB()).isEqualTo(1024.0);
            assertThat(s.powerWatts()).isEqualTo(250.5);
        });
    }

    @Test
    void shouldEmitOneSamplePerMigInstanceWhenTheGpuIsPartitioned() {
        DcgmScrape scrape = parser.parse("""
                DCGM_FI_PROF_GR_ENGINE_ACTIVE{gpu="0",UUID="GPU-h200",Hostname="n1",GPU_I_PROFILE="1g.18gb",GPU_I_ID="9",pod="a",namespace="team-a"} 0.25
                DCGM_FI_PROF_GR_ENGINE_ACTIVE{gpu="0",UUID="GPU-h200",Hostname="n1",GPU_I_PROFILE="3g.71gb",GPU_I_ID="2",pod="b",namespace="team-b"} 0.000000
                DCGM_FI_DEV_FB_USED{gpu="0",UUID="GPU-h200",Hostname="n1",GPU_I_PROFILE="1g.18gb",GPU_I_ID="9",pod="a",namespace="team-a"} 512
                DCGM_FI_DEV_POWER_USAGE{gpu="0",UUID="GPU-h200",Hostname="n1"} 310.5
                DCGM_FI_DEV_GPU_TEMP{gpu="0",UUID="GPU-other",Hostname="n1"} 31
                """, NOW, HOST);

        Map<String, ScrapedDevice> byKey = ScrapedDevice.all(scrape).stream()
                .collect(Collectors.toMap(ScrapedDevice::deviceKey, Function.identity()));
        assertThat(byKey).containsOnlyKeys("n1/GPU-h200/9", "n1/GPU-h200/2", "n1/GPU-h200");
        assertThat(byKey.get("n1/GPU-h200/9")).satisfies(s -> {
            assertThat(s.migProfile()).isEqualTo("1g.18gb");
            assertThat(s.utilization()).isEqualTo(0.25);
            assertThat(s.utilizationSource()).isEqualTo("GR_ENGINE_ACTIVE");
            assertThat(s.memoryUsedMiB()).isEqualTo(512.0);
            assertThat(s.namespace()).isEqualTo("team-a");
        });
        assertThat(byKey.get("n1/GPU-h200/2").namespace()).isEqualTo("team-b");
        assertThat(byKey.get("n1/GPU-h200").utilization())
                .as("the parent GPU reports no utilization under MIG: unknown, never idle")
                .isNull();
        assertThat(byKey.get("n1/GPU-h200").powerWatts()).isEqualTo(310.5);
    }

    @Test
    void shouldPreferGraphicsEngineActiveWhenBothUtilizationCountersArePresent() {
        DcgmScrape scrape = parser.parse("""
                DCGM_FI_DEV_GPU_UTIL{UUID="GPU-1",Hostname="n1"} 100
                DCGM_FI_PROF_GR_ENGINE_ACTIVE{UUID="GPU-1",Hostname="n1"} 0.1
                """, NOW, HOST);

        assertThat(ScrapedDevice.all(scrape)).singleElement().satisfies(s -> {
            assertThat(s.utilization()).isEqualTo(0.1);
            assertThat(s.utilizationSource()).isEqualTo("GR_ENGINE_ACTIVE");
        });
    }

    @Test
    void shouldUnescapeLabelValuesWhenTheyContainQuotesBackslashesAndNewlines() {
        DcgmScrape scrape = parser.parse("""
                DCGM_FI_DEV_GPU_UTIL{UUID="GPU-1",Hostname="n1",pod="a\\"b\\\\c\\nd",namespace="ns"} 5
                """, NOW, HOST);

        assertThat(ScrapedDevice.all(scrape))
                .singleElement()
                .extracting(ScrapedDevice::pod)
                .isEqualTo("a\"b\\c\nd");
    }

    @Test
    void shouldReadTimestampsExponentsAndSpecialFloatsWhenTheyAppearInValues() {
        DcgmScrape scrape = parser.parse("""
                DCGM_FI_DEV_POWER_USAGE{UUID="GPU-1",Hostname="n1"} 1.5e2 1700000000000
                DCGM_FI_DEV_FB_USED{UUID="GPU-1",Hostname="n1"} +Inf
                DCGM_FI_DEV_FB_FREE{UUID="GPU-1",Hostname="n1"} 7.0E+3
                DCGM_FI_PROF_GR_ENGINE_ACTIVE{UUID="GPU-1",Hostname="n1"} NaN
                DCGM_FI_DEV_GPU_UTIL{UUID="GPU-1",Hostname="n1"} -Inf
                """, NOW, HOST);

        assertThat(scrape.badLines()).isZero();
        assertThat(ScrapedDevice.all(scrape)).singleElement().satisfies(s -> {
            assertThat(s.powerWatts()).isEqualTo(150.0);
            assertThat(s.memoryFreeMiB()).isEqualTo(7000.0);
            assertThat(s.memoryUsedMiB())
                    .as("an infinite reading is no reading")
                    .isNull();
            assertThat(s.utilization())
                    .as("NaN and -Inf must never read as an idle GPU")
                    .isNull();
            assertThat(s.utilizationSource()).isNull();
        });
    }

    @Test
    void shouldSkipAndCountBadLinesWhenTheRestOfTheScrapeIsValid() {
        DcgmScrape scrape = parser.parse("""
                DCGM_FI_DEV_GPU_UTIL{UUID="GPU-1",Hostname="n1"} 30
                DCGM_FI_DEV_GPU_UTIL{UUID="GPU-2",Hostname="n1"}
                DCGM_FI_DEV_GPU_UTIL{UUID="GPU-3",Hostname="n1 40
                DCGM_FI_DEV_GPU_UTIL{UUID="GPU-4\\x",Hostname="n1"} 40
                DCGM_FI_DEV_GPU_UTIL{UUID="GPU-5",Hostname="n1"} forty
                DCGM_FI_DEV_GPU_UTIL{UUID="GPU-6",Hostname="n1"} 40 12 garbage
                DCGM_FI_DEV_GPU_UTIL{UUID="GPU-7",Hostname="n1"} 0x10
                {UUID="GPU-8",Hostname="n1"} 40
                DCGM_FI_DEV_GPU_UTIL{UUID="GPU-9",Hostname="n1"} 90
                """, NOW, HOST);

        assertThat(scrape.lines()).isEqualTo(9);
        assertThat(scrape.badLines()).isEqualTo(7);
        assertThat(ScrapedDevice.all(scrape)).extracting(ScrapedDevice::uuid).containsExactly("GPU-1", "GPU-9");
        assertThat(ScrapedDevice.all(scrape))
                .extracting(ScrapedDevice::utilization)
                .containsExactly(0.3, 0.9);
    }

    @Test
    void shouldLeaveTheDeviceUnattributedWhenPodLabelsAreEmpty() {
        DcgmScrape scrape = parser.parse("""
                DCGM_FI_DEV_GPU_UTIL{UUID="GPU-1",Hostname="n1",pod="",namespace="",container=""} 0
                """, NOW, HOST);

        assertThat(ScrapedDevice.all(scrape)).singleElement().satisfies(s -> {
            assertThat(s.attributed()).isFalse();
            assertThat(s.pod()).isNull();
            assertThat(s.namespace()).isNull();
        });
    }

    @Test
    void shouldUseTheTargetsHostWhenTheExporterOmitsTheHostnameLabel() {
        byte[] text = "DCGM_FI_DEV_GPU_UTIL{UUID=\"GPU-1\"} 10\r\nDCGM_FI_DEV_FB_USED{UUID=\"GPU-1\"} 3\r\n"
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);

        DcgmScrape scrape = parser.parse(text, text.length, NOW, DcgmEndpoint.unknown("10.0.0.7"));

        assertThat(scrape.badLines()).isZero();
        assertThat(ScrapedDevice.all(scrape)).singleElement().satisfies(s -> {
            assertThat(s.deviceKey()).isEqualTo("10.0.0.7/GPU-1");
            assertThat(s.memoryUsedMiB()).isEqualTo(3.0);
        });
    }

    @Test
    void shouldReturnFreshSamplesWhenTheSameParserReadsTheNextScrape() throws IOException {
        parseResource("dcgm-exporter-h100x8.prom");

        DcgmScrape second = parser.parse("DCGM_FI_DEV_GPU_UTIL{UUID=\"GPU-x\",Hostname=\"h\"} 1\n", NOW, HOST);

        assertThat(ScrapedDevice.all(second))
                .singleElement()
                .extracting(ScrapedDevice::deviceKey)
                .isEqualTo("h/GPU-x");
    }

    private DcgmScrape parseResource(String name) throws IOException {
        try (InputStream in = getClass().getResourceAsStream("/dcgm/" + name)) {
            byte[] bytes = in.readAllBytes();
            return parser.parse(bytes, bytes.length, NOW, DcgmEndpoint.unknown(HOST));
        }
    }
}
