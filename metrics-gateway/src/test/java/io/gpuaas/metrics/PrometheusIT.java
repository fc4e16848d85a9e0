package io.gpuaas.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.gpuaas.events.Topics;
import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A real Prometheus scrapes metrics-gateway with a bearer token and answers PromQL about queue depth and tenant
 * utilization; promtool accepts the exposition. Skipped only when the binaries are not installed.
 */
@ExtendWith(KafkaBrokerExtension.class)
class PrometheusIT {

    private static GatewayHarness gateway;
    private static PrometheusServer prometheus;

    @BeforeAll
    static void start(KafkaBroker broker) throws Exception {
        assumeTrue(
                PrometheusServer.available(), "prometheus and promtool are not installed (apt-get install prometheus)");
        gateway = new GatewayHarness(
                broker,
                "/dcgm/dcgm-exporter-h100x8.prom",
                Map.of(
                        "gpuaas.metrics-gateway.usage.namespace-tenants.dynamo-workload",
                        "team-llm",
                        "gpuaas.metrics-gateway.usage.namespace-tenants.team-a",
                        "team-a"));
        gateway.awaitReady();
        prometheus = PrometheusServer.scraping(
                gateway.server.getHost() + ":" + gateway.server.getPort(),
                GatewayHarness.token("prometheus", List.of(), List.of("metrics")));
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
    void shouldAnswerQueueDepthAndTenantUtilizationThroughPromqlWhenPrometheusScrapesTheGateway() {
        gateway.send(
                Topics.QUOTA_STATE,
                "lq/team-a/gpuaas",
                QueueStates.localQueue(
                        "team-a", "gpuaas", 4, 1, 2, Map.of("nvidia.com/mig-1g.18gb", BigDecimal.valueOf(6))));
        Instant now = Instant.now();
        gateway.send(Topics.GPU_SAMPLES, "n1", sample("GPU-1", now, 0.25));
        gateway.send(Topics.GPU_SAMPLES, "n1", sample("GPU-2", now, 0.75));

        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofSeconds(1))
                .untilAsserted(() -> {
                    assertThat(prometheus.ready()).as(prometheus.log()).isTrue();
                    assertThat(prometheus.query("up{job=\"metrics-gateway\"}")).contains("\"1\"]");
                    assertThat(prometheus.query("sum(gpuaas_queue_pending_workloads{namespace=\"team-a\"})"))
                            .contains("\"5\"]");
                    assertThat(prometheus.query("gpuaas_queue_pending_gpus{resource=\"nvidia.com/mig-1g.18gb\"}"))
                            .contains("\"6\"]");
                    assertThat(prometheus.query("gpuaas_tenant_gpu_utilization_ratio{tenant=\"team-a\"}"))
                            .contains("\"0.5\"]");
                    assertThat(prometheus.query("gpuaas_tenant_gpu_allocated{tenant=\"team-a\"}"))
                            .contains("\"2\"]");
                });
    }

    @Test
    void shouldAttributeTheRealH100PodsGpuToItsTenantWhenScrapedFromTheExporter() {
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofSeconds(1))
                .untilAsserted(() -> assertThat(prometheus.query("gpuaas_tenant_gpu_allocated{tenant=\"team-llm\"}"))
                        .contains("\"1\"]"));
    }

    @Test
    void shouldPassPromtoolWhenTheExpositionIsChecked() throws Exception {
        gateway.send(
                Topics.QUOTA_STATE, "lq/team-a/gpuaas", QueueStates.localQueue("team-a", "gpuaas", 1, 0, 0, Map.of()));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> gateway.metrics().contains("gpuaas_queue_pending_workloads{"));

        String exposition = gateway.metrics();
        PrometheusServer.Result result = PrometheusServer.checkMetrics(exposition);

        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(exposition).contains("# TYPE gpuaas_tenant_gpu_seconds_total counter");
        String openMetrics = gateway.get(
                        "/metrics",
                        GatewayHarness.token("p", List.of(), List.of("metrics")),
                        "application/openmetrics-text; version=1.0.0")
                .body();
        assertThat(openMetrics)
                .contains("# TYPE gpuaas_reclaimed_workers counter")
                .endsWith("# EOF\n");
    }

    private static GpuScrape sample(String uuid, Instant time, double utilization) {
        return TestScrapes.attributed("n1", uuid, "team-a", time, utilization);
    }
}
