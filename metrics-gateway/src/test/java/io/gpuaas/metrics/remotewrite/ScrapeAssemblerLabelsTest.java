package io.gpuaas.metrics.remotewrite;

import static io.gpuaas.metrics.remotewrite.ScrapeAssemblerTest.T1;
import static io.gpuaas.metrics.remotewrite.ScrapeAssemblerTest.map;
import static io.gpuaas.metrics.remotewrite.WriteRequests.series;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.gpu.GpuScrape;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How {@link ScrapeAssembler} reads a device's node, identity and pod from labels Prometheus relabelled or renamed. */
class ScrapeAssemblerLabelsTest {

    @Test
    void shouldKeepTheExporterHostnameAsALabelOnlyWhenTheNodeComesFromRelabelling() {
        // The exporter pod's name in Hostname (as in the A30 scrape) must not become the identity.
        Map<String, String> labels = Map.of(
                "UUID", "GPU-a", "Hostname", "dcgm-exporter-wwwjh", "kubernetes_node", "gpu-node-7", "instance", "x:1");

        GpuScrape scrape = map(List.of(
                        series("DCGM_FI_DEV_POWER_USAGE", labels, 70.5, T1),
                        series("DCGM_FI_DEV_GPU_UTIL", labels, 0, T1)))
                .scrapes()
                .getFirst();

        assertThat(scrape.node()).isEqualTo("gpu-node-7");
        assertThat(scrape.deviceKey(scrape.devices().getFirst())).isEqualTo("gpu-node-7/GPU-a");
        assertThat(scrape.devices().getFirst().hostnameLabel()).isEqualTo("dcgm-exporter-wwwjh");
        assertThat(scrape.devices().getFirst().powerWatts()).isEqualTo(70.5);
    }

    @Test
    void shouldNameTheNodeByTheInstanceHostWhenNoNodeLabelIsPresent() {
        assertThat(ScrapeAssembler.host("10.0.3.7:9400")).isEqualTo("10.0.3.7");
        assertThat(ScrapeAssembler.host("[fd00::7]:9400")).isEqualTo("fd00::7");
        assertThat(ScrapeAssembler.host("gpu-node-1")).isEqualTo("gpu-node-1");
        assertThat(ScrapeAssembler.host("fd00::7")).isEqualTo("fd00::7");

        GpuScrape scrape = map(List.of(
                        series("DCGM_FI_DEV_GPU_UTIL", Map.of("UUID", "GPU-a", "instance", "10.0.3.7:9400"), 0, T1)))
                .scrapes()
                .getFirst();

        assertThat(scrape.node()).isEqualTo("10.0.3.7");
        assertThat(scrape.target()).isEqualTo("10.0.3.7:9400");
    }

    @Test
    void shouldPreferEngineActiveAndTheExportersAttributionWhenPrometheusRenamedItsLabels() {
        Map<String, String> labels = Map.of(
                "uuid", "GPU-a",
                "node", "n1",
                "exported_pod", "trainer-0",
                "exported_namespace", "team-a",
                "exported_container", "main",
                "pod", "nvidia-dcgm-exporter-x7k2p",
                "namespace", "gpu-operator");

        GpuScrape.Device device = map(List.of(
                        series("dcgm_fi_dev_gpu_util", labels, 90, T1),
                        series("DCGM_FI_PROF_GR_ENGINE_ACTIVE", labels, 0.25, T1)))
                .scrapes()
                .getFirst()
                .devices()
                .getFirst();

        assertThat(device.utilization()).isEqualTo(0.25);
        assertThat(device.utilizationSource()).isEqualTo("GR_ENGINE_ACTIVE");
        assertThat(device.pod()).isEqualTo("trainer-0");
        assertThat(device.namespace()).isEqualTo("team-a");
        assertThat(device.container()).isEqualTo("main");
        assertThat(device.uuid()).isEqualTo("GPU-a");
    }

    @Test
    void shouldLeaveAFreeGpuUnattributedWhenTheJobLabelsEverySeriesWithTheExporterPod() {
        // A Prometheus Operator ServiceMonitor: the exporter pod's pod/namespace/container on every series.
        Map<String, String> target = Map.of(
                "node",
                "n1",
                "pod",
                "nvidia-dcgm-exporter-x7k2p",
                "namespace",
                "gpu-operator",
                "container",
                "exporter");
        Map<String, String> held = new java.util.HashMap<>(target);
        held.putAll(Map.of("UUID", "GPU-held", "exported_pod", "trainer-0", "exported_namespace", "team-a"));
        Map<String, String> free = new java.util.HashMap<>(target);
        free.put("UUID", "GPU-free");
        List<WriteRequests.TimeSeries> series =
                List.of(series("DCGM_FI_DEV_GPU_UTIL", held, 1, T1), series("DCGM_FI_DEV_GPU_UTIL", free, 1, T1));

        List<GpuScrape.Device> devices = map(series, true).scrapes().getFirst().devices();
        List<GpuScrape.Device> naive = map(series, false).scrapes().getFirst().devices();

        assertThat(devices.get(0).pod()).isEqualTo("trainer-0");
        assertThat(devices.get(0).namespace()).isEqualTo("team-a");
        assertThat(devices.get(0).container()).isNull();
        assertThat(devices.get(1).attributed()).isFalse();
        assertThat(devices.get(1).namespace()).isNull();
        assertThat(naive.get(1).pod()).isEqualTo("nvidia-dcgm-exporter-x7k2p");
    }
}
