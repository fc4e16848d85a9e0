package io.gpuaas.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.gpuaas.events.Topics;
import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Debian's real Prometheus scrapes a simulated dcgm-exporter serving the real 8xH100 scrape and remote-writes
 * everything it scraped (DCGM series, up, scrape_* and its metadata) to the gateway with a bearer token from a file;
 * the node's scrapes arrive on {@code gpuaas.gpu-samples}. The scrape job labels its target the way a Kubernetes
 * scrape config commonly does (node from relabelling, the exporter pod's own pod and namespace), so Prometheus renames
 * the exporter's attribution labels to {@code exported_*} ({@code remote-write.target-pod-labels}). Skipped only
 * when the binary is not installed.
 */
@ExtendWith(KafkaBrokerExtension.class)
class PrometheusRemoteWriteIT {

    private static GatewayHarness gateway;
    private static PrometheusServer prometheus;

    @BeforeAll
    static void start(KafkaBroker broker) throws Exception {
        assumeTrue(
                Files.isExecutable(PrometheusServer.BINARY),
                "prometheus is not installed (apt-get install prometheus)");
        // The gateway scrapes nothing itself: only Prometheus feeds the topic.
        gateway = new GatewayHarness(
                broker,
                "/dcgm/dcgm-exporter-h100x8.prom",
                Map.of(
                        "gpuaas.metrics-gateway.scrape.targets",
                        "",
                        "gpuaas.metrics-gateway.remote-write.target-pod-labels",
                        true));
        gateway.awaitReady();
        prometheus = PrometheusServer.remoteWriting(
                "127.0.0.1:" + gateway.exporter.getAddress().getPort(),
                "node: gpu-node-1, pod: nvidia-dcgm-exporter-x7k2p, namespace: gpu-operator",
                gateway.server.getURL() + "/api/v1/write",
                GatewayHarness.token("prometheus", List.of(), List.of("metrics-writer")));
    }

    @AfterAll
    static void stop() throws Exception {
        if (prometheus != null) {
            prometheus.close();
        }
        if (gateway != null) {
            gateway.close();
        }
    }

    @Test
    void shouldPublishTheNodesScrapesWhenPrometheusRemoteWritesWhatItScraped() throws Exception {
        GpuScrape scrape = (GpuScrape) gateway.consumeMatching(
                        Topics.GPU_SAMPLES.name(gateway.prefix),
                        Topics.GPU_SAMPLES.valueSerde().deserializer(),
                        r -> r.value() instanceof GpuScrape s && s.devices().size() == 8)
                .getFirst()
                .value();

        assertThat(scrape.node()).isEqualTo("gpu-node-1");
        assertThat(scrape.target())
                .isEqualTo("127.0.0.1:" + gateway.exporter.getAddress().getPort());
        GpuScrape.Device vllm = scrape.devices().stream()
                .filter(d -> d.gpuIndex() == 0)
                .findFirst()
                .orElseThrow();
        assertThat(vllm.pod()).isEqualTo("vllm-agg-0-vllmdecodeworker-s65j5");
        assertThat(vllm.namespace()).isEqualTo("dynamo-workload");
        assertThat(vllm.utilization()).isEqualTo(0.0);
        assertThat(vllm.utilizationSource()).isEqualTo("GPU_UTIL");
        assertThat(vllm.powerWatts()).isEqualTo(113.611);
        assertThat(vllm.hostnameLabel()).isEqualTo("gpu-node-1");
        // A GPU no pod holds carries only the exporter pod's target labels: it stays unattributed.
        GpuScrape.Device free = scrape.devices().stream()
                .filter(d -> d.gpuIndex() == 7)
                .findFirst()
                .orElseThrow();
        assertThat(free.attributed()).isFalse();
        assertThat(free.namespace()).isNull();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            String self = prometheus.selfMetrics();
            assertThat(counter(self, "prometheus_remote_storage_samples_total")).isPositive();
            assertThat(counter(self, "prometheus_remote_storage_samples_failed_total"))
                    .isZero();
            assertThat(gateway.metrics()).containsPattern("gpuaas_remote_write_requests_total [1-9]");
        });
    }

    /** The sum of a counter's series in Prometheus' own text exposition, 0 when absent. */
    private static double counter(String exposition, String name) {
        Matcher m = Pattern.compile("(?m)^" + name + "(\\{[^}]*})? (\\S+)$").matcher(exposition);
        double sum = 0;
        while (m.find()) {
            sum += Double.parseDouble(m.group(2));
        }
        return sum;
    }
}
