package io.gpuaas.metrics;

import static io.gpuaas.metrics.remotewrite.WriteRequests.series;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpuaas.events.CloudEvents;
import io.gpuaas.events.Json;
import io.gpuaas.events.Topics;
import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.events.gpu.GpuScrapeEvent;
import io.gpuaas.metrics.remotewrite.WriteRequests;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code POST /api/v1/write} over HTTP on a real broker: what a remote-write sender sees (status, problem body) and
 * what arrives on {@code gpuaas.gpu-samples}. The gateway scrapes nothing here, so the topic holds only what was
 * written.
 */
@ExtendWith(KafkaBrokerExtension.class)
class RemoteWriteIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String WRITER = GatewayHarness.token("prometheus", List.of(), List.of("metrics-writer"));
    private static final int MAX_BODY = 64 * 1024;

    private static GatewayHarness gateway;

    @BeforeAll
    static void start(KafkaBroker broker) throws Exception {
        gateway = new GatewayHarness(
                broker,
                "/dcgm/dcgm-exporter-t4.prom",
                Map.of(
                        "gpuaas.metrics-gateway.scrape.targets",
                        "",
                        "gpuaas.metrics-gateway.remote-write.max-body-bytes",
                        MAX_BODY));
        gateway.awaitReady();
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    private static HttpResponse<String> post(String token, String encoding, byte[] body)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(gateway.server.getURL() + "/api/v1/write"))
                .header("Content-Type", "application/x-protobuf")
                .header("X-Prometheus-Remote-Write-Version", "0.1.0")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (encoding != null) {
            request.header("Content-Encoding", encoding);
        }
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static byte[] body(String node, String uuid) {
        return WriteRequests.body(List.of(
                series("DCGM_FI_DEV_GPU_UTIL", Map.of("UUID", uuid, "node", node, "Hostname", "dcgm-x1"), 40, 1_000),
                series("DCGM_FI_DEV_FB_FREE", Map.of("UUID", uuid, "node", node), 15109, 1_000)));
    }

    @Test
    void shouldPublishOneScrapeKeyedByNodeWhenAWriterPostsRemoteWrite() throws Exception {
        HttpResponse<String> response = post(WRITER, "snappy", body("rw-node-1", "GPU-rw1"));

        assertThat(response.statusCode()).isEqualTo(204);
        ConsumerRecord<byte[], GpuScrapeEvent> record = gateway.consumeMatching(
                        Topics.GPU_SAMPLES.name(gateway.prefix),
                        Topics.GPU_SAMPLES.valueSerde().deserializer(),
                        r -> r.value() instanceof GpuScrape s && s.node().equals("rw-node-1"))
                .getFirst();
        assertThat(new String(record.key())).isEqualTo("rw-node-1");
        assertThat(CloudEvents.header(record.headers(), CloudEvents.TYPE)).isEqualTo("io.gpuaas.gpu.scrape.v1");
        assertThat(record.value()).isInstanceOfSatisfying(GpuScrape.class, s -> {
            assertThat(s.time()).isEqualTo(Instant.ofEpochMilli(1_000));
            assertThat(s.devices()).singleElement().satisfies(d -> {
                assertThat(d.uuid()).isEqualTo("GPU-rw1");
                assertThat(d.utilization()).isEqualTo(0.4);
                assertThat(d.memoryFreeMiB()).isEqualTo(15109.0);
                assertThat(d.hostnameLabel()).isEqualTo("dcgm-x1");
            });
        });
    }

    @Test
    void shouldAnswer401WithoutATokenAnd403ForReadersAndTenantsWhileAdminsMayWrite() throws Exception {
        String metricsReader = GatewayHarness.token("prometheus", List.of(), List.of("metrics"));
        String tenant = GatewayHarness.token("team-a", List.of("team-a"), List.of());
        String admin = GatewayHarness.token("ops", List.of(), List.of("admin"));

        HttpResponse<String> anonymous = post(null, "snappy", body("rw-node-2", "GPU-rw2"));
        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(anonymous.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(post(metricsReader, "snappy", body("rw-node-2", "GPU-rw2")).statusCode())
                .isEqualTo(403);
        assertThat(post(tenant, "snappy", body("rw-node-2", "GPU-rw2")).statusCode())
                .isEqualTo(403);
        assertThat(post(admin, "snappy", body("rw-node-2", "GPU-rw2")).statusCode())
                .isEqualTo(204);
    }

    @Test
    void shouldAnswerProblemsWithoutInternalsAndCountThemWhenTheRequestCannotBeWritten() throws Exception {
        byte[] notProtobuf = WriteRequests.snappy(new byte[] {0x0F, 0x00});
        byte[] invalidSeries = WriteRequests.body(List.of(series("DCGM_FI_DEV_GPU_UTIL", Map.of("node", "n"), 1, 1)));
        byte[] declaredTooLarge = WriteRequests.body(IntStream.range(0, 2_000)
                .mapToObj(i -> series("DCGM_FI_DEV_GPU_UTIL", Map.of("UUID", "GPU-" + i, "node", "n"), 1, 1))
                .toList());

        assertProblem(post(WRITER, "snappy", "not snappy at all".getBytes()), 400, "NOT_SNAPPY");
        assertProblem(post(WRITER, "snappy", notProtobuf), 400, "MALFORMED_PROTOBUF");
        assertProblem(post(WRITER, "snappy", invalidSeries), 400, "INVALID_SERIES");
        assertProblem(post(WRITER, null, body("n", "GPU-x")), 415, "UNSUPPORTED_MEDIA_TYPE");
        assertProblem(post(WRITER, "snappy", declaredTooLarge), 413, "BODY_TOO_LARGE");
        assertThat(declaredTooLarge.length).isLessThan(MAX_BODY);

        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(gateway.metrics())
                .contains("gpuaas_remote_write_rejected_requests_total{reason=\"not_snappy\"} 1.0")
                .contains("gpuaas_remote_write_rejected_requests_total{reason=\"malformed_protobuf\"} 1.0")
                .contains("gpuaas_remote_write_rejected_requests_total{reason=\"invalid_series\"} 1.0")
                .contains("gpuaas_remote_write_rejected_requests_total{reason=\"unsupported_media_type\"} 1.0")
                .contains("gpuaas_remote_write_rejected_requests_total{reason=\"body_too_large\"} 1.0"));
    }

    private static void assertProblem(HttpResponse<String> response, int status, String rule) throws IOException {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        JsonNode problem = Json.mapper().readTree(response.body());
        assertThat(problem.path("status").asInt()).isEqualTo(status);
        assertThat(problem.path("rule").asText()).isEqualTo(rule);
        assertThat(problem.path("instance").asText()).isEqualTo("/api/v1/write");
        assertThat(response.body()).doesNotContain("Exception", "xerial", "io.gpuaas", ".java");
    }
}
