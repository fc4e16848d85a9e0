package io.gpuaas.kit;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.testing.auth.TestJwt;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The plumbing as a service sees it: a real broker, real HTTP, real signed tokens. */
@ExtendWith(KafkaBrokerExtension.class)
class ServiceKitIT {

    private static final TestJwt JWT = TestJwt.generate();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static EmbeddedServer server;

    @BeforeAll
    static void start(KafkaBroker broker) throws IOException {
        Path jwks = JWT.writeJwks(Files.createTempFile("jwks", ".json"));
        Map<String, Object> props = new HashMap<>(Map.of(
                "micronaut.server.port", -1,
                "endpoints.health.details-visible", "ANONYMOUS",
                "gpuaas.security.jwks-path", jwks.toString()));
        // A Kafka user without a single ACL: the readiness check must need nothing a service's grants lack.
        props.putAll(broker.serviceProperties("gpuaas-kit-it", List.of()));
        server = ApplicationContext.run(EmbeddedServer.class, props);
        Counter.builder().name("kit_test_events_total").help("test counter").register(
                server.getApplicationContext().getBean(PrometheusRegistry.class)).inc(3);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void shouldServePrometheusTextWhenCallerHasMetricsRole() throws Exception {
        HttpResponse<String> response = get("/metrics", token(List.of("metrics")));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("text/plain; version=0.0.4"));
        assertThat(response.body()).contains("# TYPE kit_test_events_total counter", "kit_test_events_total 3.0");
    }

    @Test
    void shouldServeOpenMetricsWhenAsked() throws Exception {
        HttpRequest request = request("/metrics", token(List.of("admin")))
                .header("Accept", "application/openmetrics-text; version=1.0.0").build();
        HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("kit_test_events_total 3.0").endsWith("# EOF\n");
    }

    @Test
    void shouldRejectMetricsWhenTokenMissingBadOrWithoutRole() throws Exception {
        assertThat(get("/metrics", null).statusCode()).isEqualTo(401);
        assertThat(get("/metrics", JWT.expiredToken("u", "team-a", List.of("team-a"), List.of("metrics")))
                .statusCode()).isEqualTo(401);
        assertThat(get("/metrics", JWT.tokenSignedByOtherKey("u", "team-a", List.of("team-a"), List.of("metrics"),
                Duration.ofMinutes(5))).statusCode()).isEqualTo(401);
        assertThat(get("/metrics", token(List.of())).statusCode()).isEqualTo(403);
    }

    @Test
    void shouldReportReadyWithKafkaDetailsWithoutToken() throws Exception {
        HttpResponse<String> response = get("/health/readiness", null);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("\"status\":\"UP\"").contains("clusterId");
    }

    @Test
    void shouldReportNotReadyWhenKafkaIsUnreachable() throws Exception {
        try (EmbeddedServer cut = ApplicationContext.run(EmbeddedServer.class, Map.of(
                "micronaut.server.port", -1,
                "gpuaas.kafka.bootstrap-servers", "127.0.0.1:1",
                "gpuaas.security.jwks-path", JWT.writeJwks(Files.createTempFile("jwks", ".json")).toString()))) {
            HttpResponse<String> readiness = HTTP.send(HttpRequest.newBuilder(cut.getURI().resolve("/health/readiness"))
                    .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> liveness = HTTP.send(HttpRequest.newBuilder(cut.getURI().resolve("/health/liveness"))
                    .build(), HttpResponse.BodyHandlers.ofString());

            assertThat(readiness.statusCode()).isEqualTo(503);
            assertThat(readiness.body()).contains("DOWN");
            assertThat(liveness.statusCode()).isEqualTo(200);
        }
    }

    private static String token(List<String> roles) {
        return JWT.token("sre", "platform", List.of(), roles, Duration.ofMinutes(5));
    }

    private static HttpResponse<String> get(String path, String token) throws Exception {
        return HTTP.send(request(path, token).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpRequest.Builder request(String path, String token) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(server.getURI() + path));
        return token == null ? builder : builder.header("Authorization", "Bearer " + token);
    }
}
