package io.gpuaas.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gpuaas.events.CloudEvents;
import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.Topics;
import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.events.gpu.GpuScrapeEvent;
import io.gpuaas.events.quota.QueueState;
import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.events.tenant.TenantUtilization;
import io.gpuaas.events.tenant.TenantUtilizationEvent;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import java.math.BigDecimal;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** metrics-gateway end to end on a real broker: scrape in, projections out over /metrics and KEDA. */
@ExtendWith(KafkaBrokerExtension.class)
class MetricsGatewayIT {

    private static GatewayHarness gateway;

    @BeforeAll
    static void start(KafkaBroker broker) throws Exception {
        gateway = new GatewayHarness(
                broker,
                "/dcgm/dcgm-exporter-t4.prom",
                Map.of(
                        "gpuaas.metrics-gateway.usage.namespace-tenants.team-a", "team-a",
                        "gpuaas.metrics-gateway.usage.rollup-window", "2s"));
        gateway.awaitReady();
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    @Test
    void shouldPublishTheScrapedT4AsAGpuScrapeKeyedByNodeWhenTheExporterAnswers() {
        ConsumerRecord<byte[], GpuScrapeEvent> record = gateway.consumeMatching(
                        Topics.GPU_SAMPLES.name(gateway.prefix),
                        Topics.GPU_SAMPLES.valueSerde().deserializer(),
                        r -> r.value() instanceof GpuScrape s
                                && s.devices().stream().anyMatch(d -> "Tesla T4".equals(d.modelName())))
                .getFirst();

        // A configured target without a name: the exporter's Hostname label is the only node name there is.
        assertThat(new String(record.key())).isEqualTo("424773df46e0");
        assertThat(CloudEvents.header(record.headers(), CloudEvents.TYPE)).isEqualTo("io.gpuaas.gpu.scrape.v1");
        assertThat(CloudEvents.header(record.headers(), CloudEvents.SOURCE)).isNotBlank();
        assertThat(record.value()).isInstanceOfSatisfying(GpuScrape.class, s -> {
            assertThat(s.node()).isEqualTo("424773df46e0");
            assertThat(s.target()).matches("127\\.0\\.0\\.1:\\d+");
            assertThat(s.devices()).singleElement().satisfies(d -> {
                assertThat(s.deviceKey(d)).isEqualTo("424773df46e0/GPU-20c56d28-0da5-6d26-a36a-e7af1ce2586e");
                assertThat(d.hostnameLabel()).isEqualTo("424773df46e0");
                assertThat(d.memoryFreeMiB()).isEqualTo(15109.0);
                assertThat(d.utilizationSource()).isEqualTo("GPU_UTIL");
            });
        });
    }

    @Test
    void shouldReportTheScrapeTargetUpWhenItAnswers() {
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(gateway.metrics())
                .containsPattern("gpuaas_scrape_up\\{target=\"127.0.0.1:\\d+\"} 1.0"));
    }

    @Test
    void shouldShowQueueDepthOnMetricsWithinASecondWhenAQueueStateArrives() throws Exception {
        gateway.send(Topics.QUOTA_STATE, "lq/team-a/gpuaas", localQueue("team-a", 3, 1, 4));
        Instant acknowledged = Instant.now();

        // The time that counts is when the scrape that first shows the change was asked for, not when its
        // (loaded, shared-CPU) HTTP round trip ended.
        Instant visibleAt = null;
        String metrics = "";
        while (visibleAt == null
                && Duration.between(acknowledged, Instant.now()).toSeconds() < 10) {
            Instant asked = Instant.now();
            metrics = gateway.metrics();
            if (metrics.contains(
                    "gpuaas_queue_pending_workloads{cluster_queue=\"gpuaas-team-a\",local_queue=\"gpuaas\",namespace=\"team-a\"} 3.0")) {
                visibleAt = asked;
            }
        }
        assertThat(visibleAt).as("queue depth never appeared").isNotNull();
        assertThat(Duration.between(acknowledged, visibleAt)).isLessThan(Duration.ofSeconds(1));
        assertThat(metrics)
                .contains(
                        "gpuaas_queue_pending_gpus{cluster_queue=\"gpuaas-team-a\",local_queue=\"gpuaas\",namespace=\"team-a\",resource=\"nvidia.com/gpu\"} 4.0",
                        "gpuaas_queue_admitted_workloads{cluster_queue=\"gpuaas-team-a\",local_queue=\"gpuaas\",namespace=\"team-a\"} 1.0");
        assertThat(metrics).doesNotContain("resource=\"cpu\"");
    }

    @Test
    void shouldLetATenantReadOnlyItsOwnQueuesWhenCallingTheKedaEndpoint() throws Exception {
        gateway.send(Topics.QUOTA_STATE, "lq/team-a/gpuaas", localQueue("team-a", 2, 0, 2));
        String teamA = GatewayHarness.token("team-a", List.of("team-a", "team-a-dev"), List.of());

        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            HttpResponse<String> own = gateway.get("/api/v1/keda/queues/team-a/gpuaas", teamA, null);
            assertThat(own.statusCode()).isEqualTo(200);
            assertThat(own.body()).contains("\"pendingWorkloads\":2", "\"pendingGpus\":2.0", "\"known\":true");
        });
        HttpResponse<String> other = gateway.get("/api/v1/keda/queues/team-b/gpuaas", teamA, null);
        assertThat(other.statusCode()).isEqualTo(403);
        assertThat(other.headers().firstValue("content-type")).hasValue("application/problem+json");
        assertThat(gateway.get("/api/v1/keda/queues/team-a/gpuaas", null, null).statusCode())
                .isEqualTo(401);
        assertThat(gateway.get(
                                "/api/v1/keda/queues/team-b/gpuaas",
                                GatewayHarness.token("keda", List.of(), List.of("metrics")),
                                null)
                        .body())
                .contains("\"known\":false");
    }

    @Test
    void shouldAnswer400WhenKedaAsksForANameKubernetesCouldNotHold() throws Exception {
        String keda = GatewayHarness.token("keda", List.of(), List.of("metrics"));
        Map<String, String> crafted = Map.of(
                "/api/v1/keda/queues/..%2Fteam-b/gpuaas", "namespace",
                "/api/v1/keda/queues/team-a/a%20b", "localQueue",
                "/api/v1/keda/workloads/team-a/Deployment/llm", "kind",
                "/api/v1/keda/workloads/team-a/InferenceService/a%0d%0ab", "name");
        for (Map.Entry<String, String> path : crafted.entrySet()) {
            HttpResponse<String> response = gateway.get(path.getKey(), keda, null);
            assertThat(response.statusCode()).as(path.getKey()).isEqualTo(400);
            assertThat(response.headers().firstValue("content-type")).hasValue("application/problem+json");
            assertThat(response.body()).contains("\"field\":\"" + path.getValue() + "\"");
        }
    }

    @Test
    void shouldExposeTheIdlenessSignalWhenTheReclaimerReportsAnIdleWorkload() {
        WorkloadRef ref = new WorkloadRef("team-a", "InferenceService", "llm");
        Instant now = Instant.now();
        gateway.send(
                Topics.RECLAIM_EVENTS,
                ref.key(),
                new ReclaimEvent.IdleDetected(
                        ref, "team-a", 2, now.minusSeconds(900), 900, 0.05, 0.01, 1.0, "keda", now));
        String teamA = GatewayHarness.token("team-a", List.of("team-a"), List.of());

        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            assertThat(gateway.metrics())
                    .contains("gpuaas_workload_idle{kind=\"InferenceService\",name=\"llm\",namespace=\"team-a\"} 1.0");
            assertThat(gateway.get("/api/v1/keda/workloads/team-a/InferenceService/llm", teamA, null)
                            .body())
                    .contains("\"idle\":1", "\"active\":0");
        });
    }

    @Test
    void shouldChargeTheTenantAndPublishARollupWhenItsPodsGpusAreSampled() {
        Instant t0 = Instant.now();
        for (int i = 0; i < 3; i++) {
            Instant t = t0.plusSeconds(i);
            gateway.send(
                    Topics.GPU_SAMPLES, "n1", TestScrapes.merged(sample("GPU-a", t, 0.8), sample("GPU-b", t, 0.0)));
        }

        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(gateway.metrics())
                .contains(
                        "gpuaas_tenant_gpu_allocated{tenant=\"team-a\"} 2.0",
                        "gpuaas_tenant_gpu_utilization_ratio{tenant=\"team-a\"} 0.4",
                        "gpuaas_tenant_gpu_seconds_total{state=\"busy\",tenant=\"team-a\"} 2.0",
                        "gpuaas_tenant_gpu_seconds_total{state=\"idle\",tenant=\"team-a\"} 2.0"));
        List<ConsumerRecord<byte[], TenantUtilizationEvent>> rollups = gateway.consumeMatching(
                Topics.TENANT_UTILIZATION.name(gateway.prefix),
                Topics.TENANT_UTILIZATION.valueSerde().deserializer(),
                r -> r.value() instanceof TenantUtilization u && u.allocatedGpuSeconds() > 0);
        assertThat(new String(rollups.getFirst().key())).isEqualTo("team-a");
    }

    @Test
    void shouldDeadLetterAnUnreadableRecordAndApplyTheNextWhenQuotaStateIsCorrupt() {
        gateway.sendGarbage(Topics.QUOTA_STATE, "lq/team-a/broken", "{not json".getBytes());
        gateway.send(Topics.QUOTA_STATE, "lq/team-a/after", localQueue("team-a", 7, 0, 0, "after"));

        List<ConsumerRecord<byte[], byte[]>> letters = gateway.consumeMatching(
                Topics.DEAD_LETTER.name(gateway.prefix), new ByteArrayDeserializer(), r -> "lq/team-a/broken"
                        .equals(new String(r.key())));
        assertThat(CloudEvents.header(letters.getFirst().headers(), DeadLetterPublisher.REASON))
                .isEqualTo("MISSING_TYPE");
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(gateway.metrics())
                .contains("local_queue=\"after\",namespace=\"team-a\"} 7.0"));
    }

    @Test
    void shouldReportReadyWhenKafkaIsReachable() throws Exception {
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            HttpResponse<String> ready = gateway.get("/health/readiness", null, null);
            assertThat(ready.statusCode()).isEqualTo(200);
            assertThat(ready.body()).contains("\"status\":\"UP\"");
        });
        assertThat(gateway.get("/health/liveness", null, null).statusCode()).isEqualTo(200);
    }

    private static QueueState localQueue(String namespace, int pending, int admitted, int gpus) {
        return localQueue(namespace, pending, admitted, gpus, "gpuaas");
    }

    private static QueueState localQueue(String namespace, int pending, int admitted, int gpus, String name) {
        return QueueStates.localQueue(
                namespace,
                name,
                pending,
                0,
                admitted,
                Map.of("nvidia.com/gpu", BigDecimal.valueOf(gpus), "cpu", BigDecimal.TEN));
    }

    private static GpuScrape sample(String uuid, Instant time, double utilization) {
        return TestScrapes.attributed("n1", uuid, "team-a", time, utilization);
    }
}
