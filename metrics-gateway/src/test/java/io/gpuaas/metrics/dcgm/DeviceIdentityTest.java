package io.gpuaas.metrics.dcgm;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.metrics.scrape.ScrapeTarget;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which node a scraped device is on, and so its key {@code node/uuid[/gpuInstanceId]}: the node the gateway knows the
 * exporter runs on wins over the exporter's {@code Hostname} label, which in real deployments is often the exporter
 * pod's own name and changes whenever the exporter restarts.
 */
class DeviceIdentityTest {

    private static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");
    private static final String A30_MIG = "GPU-7a1c30e2-5b4d-4c8e-9f10-2a3b4c5d6e7f";
    private static final String RTX = "GPU-3d9f0b1a-8c7e-4d6f-a5b4-c3d2e1f0a9b8";

    /**
     * A scrape in the label shape of a real dcgm-exporter DaemonSet pod on an A30 node with MIG on and an RTX GPU
     * beside it: {@code Hostname} is the exporter pod's name, not the node's (values made up, shape kept).
     */
    private static String scrapeFromExporterPod(String podName) {
        String a30 = "gpu=\"0\",UUID=\"" + A30_MIG + "\",device=\"nvidia0\",modelName=\"NVIDIA A30\","
                + "GPU_I_PROFILE=\"1g.6gb\",GPU_I_ID=\"3\",Hostname=\"" + podName + "\","
                + "DCGM_FI_DRIVER_VERSION=\"510.85.02\",container=\"main\",namespace=\"team-a\",pod=\"ray-worker-0\"";
        String a30Idle = a30.replace("GPU_I_ID=\"3\"", "GPU_I_ID=\"4\"")
                .replace(
                        "container=\"main\",namespace=\"team-a\",pod=\"ray-worker-0\"",
                        "container=\"\",namespace=\"\",pod=\"\"");
        String rtx = "gpu=\"1\",UUID=\"" + RTX + "\",device=\"nvidia1\",modelName=\"NVIDIA GeForce RTX 3090\","
                + "Hostname=\"" + podName + "\",DCGM_FI_DRIVER_VERSION=\"510.85.02\","
                + "container=\"\",namespace=\"\",pod=\"\"";
        return """
                # HELP DCGM_FI_DEV_GPU_UTIL GPU utilization (in %%).
                # TYPE DCGM_FI_DEV_GPU_UTIL gauge
                DCGM_FI_DEV_GPU_UTIL{%3$s} 7
                # HELP DCGM_FI_DEV_FB_USED Framebuffer memory used (in MiB).
                # TYPE DCGM_FI_DEV_FB_USED gauge
                DCGM_FI_DEV_FB_USED{%1$s} 5
                DCGM_FI_DEV_FB_USED{%2$s} 0
                DCGM_FI_DEV_FB_USED{%3$s} 312
                # HELP DCGM_FI_PROF_GR_ENGINE_ACTIVE Ratio of time the graphics engine is active (in %%).
                # TYPE DCGM_FI_PROF_GR_ENGINE_ACTIVE gauge
                DCGM_FI_PROF_GR_ENGINE_ACTIVE{%1$s} 0.000000
                DCGM_FI_PROF_GR_ENGINE_ACTIVE{%2$s} 0.000000
                """.formatted(a30, a30Idle, rtx);
    }

    private static DcgmScrape parse(DcgmTextParser parser, String text, ScrapeTarget target) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return parser.parse(bytes, bytes.length, NOW, target.endpoint());
    }

    private static ScrapeTarget discovered(String podIp, String nodeName) {
        return new ScrapeTarget(URI.create("http://" + podIp + ":9400/metrics"), nodeName, "kubernetes");
    }

    @Test
    void shouldKeyDevicesByTheDiscoveredNodeWhenTheHostnameLabelIsTheExporterPodsName() {
        DcgmScrape scrape = parse(
                new DcgmTextParser(),
                scrapeFromExporterPod("dcgm-exporter-wwwjh"),
                discovered("10.0.3.7", "gpu-a30-1"));

        assertThat(scrape.scrapes()).singleElement().satisfies(node -> {
            assertThat(node.node()).isEqualTo("gpu-a30-1");
            assertThat(node.target()).isEqualTo("10.0.3.7:9400");
            assertThat(node.time()).isEqualTo(NOW);
            assertThat(node.devices())
                    .extracting(GpuScrape.Device::hostnameLabel)
                    .containsOnly("dcgm-exporter-wwwjh");
        });
        assertThat(ScrapedDevice.all(scrape))
                .extracting(ScrapedDevice::deviceKey)
                .containsExactly("gpu-a30-1/" + RTX, "gpu-a30-1/" + A30_MIG + "/3", "gpu-a30-1/" + A30_MIG + "/4");
    }

    @Test
    void shouldKeepEveryDeviceKeyWhenTheExporterRestartsUnderANewPodName() {
        DcgmTextParser parser = new DcgmTextParser();
        ScrapeTarget before = discovered("10.0.3.7", "gpu-a30-1");
        // The restarted exporter pod gets a new name and a new IP; discovery still reports the same node.
        ScrapeTarget after = discovered("10.0.3.19", "gpu-a30-1");

        List<ScrapedDevice> first =
                ScrapedDevice.all(parse(parser, scrapeFromExporterPod("dcgm-exporter-wwwjh"), before));
        List<ScrapedDevice> second =
                ScrapedDevice.all(parse(new DcgmTextParser(), scrapeFromExporterPod("dcgm-exporter-x7k2p"), after));

        assertThat(second)
                .extracting(ScrapedDevice::deviceKey)
                .containsExactlyElementsOf(
                        first.stream().map(ScrapedDevice::deviceKey).toList());
        assertThat(second).extracting(s -> s.device().hostnameLabel()).containsOnly("dcgm-exporter-x7k2p");
        assertThat(second).filteredOn(ScrapedDevice::attributed).singleElement().satisfies(s -> {
            assertThat(s.pod()).isEqualTo("ray-worker-0");
            assertThat(s.utilization()).isEqualTo(0.0);
            assertThat(s.migProfile()).isEqualTo("1g.6gb");
        });
    }

    @Test
    void shouldNameTheNodeAfterAConfiguredTargetsNameWhenItIsGivenOne() {
        ScrapeTarget named = ScrapeTarget.configured("gpu-a30-1=http://10.0.3.7:9400/metrics");

        DcgmScrape scrape = parse(new DcgmTextParser(), scrapeFromExporterPod("dcgm-exporter-wwwjh"), named);

        assertThat(named.url()).isEqualTo(URI.create("http://10.0.3.7:9400/metrics"));
        assertThat(scrape.scrapes()).singleElement().extracting(GpuScrape::node).isEqualTo("gpu-a30-1");
    }

    @Test
    void shouldFallBackToTheHostnameLabelAndThenTheHostWhenTheGatewayKnowsNoNode() {
        ScrapeTarget unnamed = ScrapeTarget.configured("http://10.0.3.7:9400/metrics?collect=a=b");
        String twoNodes = """
                DCGM_FI_DEV_GPU_UTIL{UUID="GPU-1",Hostname="node-a"} 10
                DCGM_FI_DEV_GPU_UTIL{UUID="GPU-2",Hostname="node-b"} 20
                DCGM_FI_DEV_GPU_UTIL{UUID="GPU-3"} 30
                DCGM_FI_DEV_FB_USED{UUID="GPU-1",Hostname="node-a"} 5
                """;

        DcgmScrape scrape = parse(new DcgmTextParser(), twoNodes, unnamed);

        assertThat(unnamed.nodeName()).isNull();
        assertThat(scrape.scrapes())
                .extracting(GpuScrape::node)
                .as("one record per node: the topic is keyed by node")
                .containsExactly("node-a", "node-b", "10.0.3.7");
        assertThat(ScrapedDevice.all(scrape))
                .extracting(ScrapedDevice::deviceKey)
                .containsExactly("node-a/GPU-1", "node-b/GPU-2", "10.0.3.7/GPU-3");
    }
}
