package io.gpuaas.kit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import java.time.Instant;
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
        Map<String, Object> properties = new HashMap<>(edgeProperties(jwks));
        // A Kafka user without a single ACL: the readiness check must need nothing a service's grants lack.
        properties.putAll(broker.serviceProperties("gpuaas-kit-it", List.of()));
        server = ApplicationContext.run(EmbeddedServer.class, properties);
        Counter.builder()
                .name("kit_test_events_total")
                .help("test counter")
                .register(server.getApplicationContext().getBean(PrometheusRegistry.class))
                .inc(3);
    }

    /** What every service's application.yml says about the edge, plus a static folder and a small body limit. */
    static Map<String, Object> edgeProperties(Path jwks) {
        return Map.ofEntries(
                Map.entry("micronaut.server.port", -1),
                Map.entry("micronaut.server.max-request-size", 1024),
                Map.entry("micronaut.router.static-resources.assets.paths", "classpath:kit-assets"),
                Map.entry("micronaut.router.static-resources.assets.mapping", "/assets/**"),
                // A path without a route is a 404 (405, 415) rather than a 401/403 that hides it.
                Map.entry("micronaut.security.reject-not-found", false),
                Map.entry("micronaut.security.intercept-url-map[0].pattern", "/assets/**"),
                Map.entry("micronaut.security.intercept-url-map[0].access[0]", "isAnonymous()"),
                Map.entry("endpoints.all.enabled", false),
                Map.entry("endpoints.health.enabled", true),
                Map.entry("endpoints.health.sensitive", false),
                Map.entry("endpoints.health.details-visible", "AUTHENTICATED"),
                Map.entry("gpuaas.security.issuer", TestJwt.ISSUER),
                Map.entry("gpuaas.security.audience", TestJwt.AUDIENCE),
                Map.entry("gpuaas.security.jwks-path", jwks.toString()));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void shouldServePrometheusTextWhenCallerHasMetricsRole() throws Exception {
        HttpResponse<String> response = get("/metrics", token(List.of("metrics")));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("text/plain; version=0.0.4"));
        assertThat(response.body()).contains("# TYPE kit_test_events_total counter", "kit_test_events_total 3.0");
    }

    @Test
    void shouldServeOpenMetricsWhenAsked() throws Exception {
        HttpRequest request = request("/metrics", token(List.of("admin")))
                .header("Accept", "application/openmetrics-text; version=1.0.0")
                .build();
        HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("kit_test_events_total 3.0").endsWith("# EOF\n");
    }

    @Test
    void shouldRejectMetricsWhenTokenMissingBadOrWithoutRole() throws Exception {
        assertThat(get("/metrics", null).statusCode()).isEqualTo(401);
        assertThat(get("/metrics", JWT.expiredToken("u", "team-a", List.of("team-a"), List.of("metrics")))
                        .statusCode())
                .isEqualTo(401);
        assertThat(get(
                                "/metrics",
                                JWT.tokenSignedByOtherKey(
                                        "u", "team-a", List.of("team-a"), List.of("metrics"), Duration.ofMinutes(5)))
                        .statusCode())
                .isEqualTo(401);
        assertThat(get("/metrics", token(List.of())).statusCode()).isEqualTo(403);
    }

    @Test
    void shouldShowHealthDetailsOnlyToAdminOrMetricsRole() throws Exception {
        for (String path : List.of("/health", "/health/readiness")) {
            HttpResponse<String> anonymous = get(path, null);
            HttpResponse<String> tenant =
                    get(path, JWT.token("alice", "team-a", List.of("team-a"), List.of(), Duration.ofMinutes(5)));
            HttpResponse<String> scraper = get(path, token(List.of("metrics")));

            assertThat(anonymous.statusCode()).as(path).isEqualTo(200);
            assertThat(anonymous.body()).as(path).contains("\"status\":\"UP\"").doesNotContain("clusterId", "details");
            assertThat(tenant.body()).as(path).contains("\"status\":\"UP\"").doesNotContain("clusterId", "details");
            assertThat(scraper.body()).as(path).contains("clusterId");
        }
        assertThat(get("/health", token(List.of("admin"))).body()).contains("clusterId");
        assertThat(get("/health/liveness", null).statusCode()).isEqualTo(200);
    }

    @Test
    void shouldRefuseTokensWithoutExpiryNotYetValidOrForAnotherIssuerOrAudience() throws Exception {
        List<String> roles = List.of("metrics");
        Map<String, String> refused = Map.of(
                "no exp", JWT.tokenWithoutExpiry("u", "t", List.of(), roles),
                "nbf in 10 min",
                        JWT.tokenNotBefore(Instant.now().plus(Duration.ofMinutes(10)), "u", "t", List.of(), roles),
                "other issuer", JWT.tokenWithIssuer("https://idp.example", "u", "t", List.of(), roles),
                "issuer with our name as suffix",
                        JWT.tokenWithIssuer("evil-" + TestJwt.ISSUER, "u", "t", List.of(), roles),
                "no issuer", JWT.tokenWithIssuer(null, "u", "t", List.of(), roles),
                "other audience", JWT.tokenWithAudience(List.of("billing"), "u", "t", List.of(), roles),
                "no audience", JWT.tokenWithAudience(List.of(), "u", "t", List.of(), roles));
        for (Map.Entry<String, String> token : refused.entrySet()) {
            HttpResponse<String> response = get("/metrics", token.getValue());
            assertThat(response.statusCode()).as(token.getKey()).isEqualTo(401);
            assertProblem(response, 401, "UNAUTHENTICATED");
        }
        assertThat(get("/metrics", JWT.tokenNotBefore(Instant.now().plusSeconds(20), "u", "t", List.of(), roles))
                        .statusCode())
                .as("nbf within the clock skew")
                .isEqualTo(200);
        assertThat(get(
                                "/metrics",
                                JWT.tokenWithAudience(List.of("billing", TestJwt.AUDIENCE), "u", "t", List.of(), roles))
                        .statusCode())
                .as("one of several audiences")
                .isEqualTo(200);
    }

    @Test
    void shouldAnswerEveryFrameworkErrorAsProblemJsonWithoutInternals() throws Exception {
        String caller = token(List.of());
        assertProblem(get("/nowhere", caller), 404, "NOT_FOUND");
        assertProblem(get("/nowhere", null), 404, "NOT_FOUND");
        assertProblem(get("/assets/missing.txt", null), 404, "NOT_FOUND");
        assertProblem(send("DELETE", "/metrics", caller, null, "application/json"), 405, "METHOD_NOT_ALLOWED");
        assertProblem(
                send("POST", "/probe/readings", caller, "x".repeat(4096), "application/json"), 413, "BODY_TOO_LARGE");
        assertProblem(
                send("POST", "/probe/readings", caller, "count=1", "application/x-www-form-urlencoded"),
                415,
                "UNSUPPORTED_MEDIA_TYPE");
        assertProblem(
                send("POST", "/probe/readings", caller, "{\"count\": ", "application/json"), 400, "MALFORMED_JSON");
        assertProblem(
                send("POST", "/probe/readings", caller, "{\"count\": \"two\"}", "application/json"),
                400,
                "INVALID_FIELD");
        assertProblem(
                send("POST", "/probe/readings", caller, "{\"count\": 1, \"at\": \"noon\"}", "application/json"),
                400,
                "INVALID_FIELD");
        assertProblem(get("/probe/count?n=many", caller), 400, "INVALID_PARAMETER");
        assertProblem(get("/probe/count", caller), 400, "MISSING_PARAMETER");
        assertProblem(get("/probe/boom", caller), 500, "INTERNAL");
        assertProblem(get("/metrics", caller), 403, "ROLE_REQUIRED");
        assertProblem(get("/probe/count?n=1", null), 401, "UNAUTHENTICATED");
        assertThat(get("/assets/hello.txt", null).body()).isEqualTo("hello\n");
    }

    @Test
    void shouldRefuseToStartWithoutIssuer() {
        assertThatThrownBy(() -> ApplicationContext.run(Map.of(
                                "gpuaas.kafka.bootstrap-servers",
                                "127.0.0.1:1",
                                "gpuaas.security.audience",
                                TestJwt.AUDIENCE))
                        .close())
                .rootCause()
                .hasMessageContaining("gpuaas.security.issuer must be set");
    }

    @Test
    void shouldKeepManagementEndpointsClosed() throws Exception {
        for (String path : List.of("/beans", "/routes", "/info", "/threaddump", "/env", "/loggers", "/refresh")) {
            assertProblem(get(path, token(List.of("admin"))), 404, "NOT_FOUND");
        }
    }

    @Test
    void shouldReportNotReadyWhenKafkaIsUnreachable() throws Exception {
        try (EmbeddedServer cut = ApplicationContext.run(
                EmbeddedServer.class,
                Map.of(
                        "micronaut.server.port",
                        -1,
                        "gpuaas.kafka.bootstrap-servers",
                        "127.0.0.1:1",
                        "gpuaas.security.issuer",
                        TestJwt.ISSUER,
                        "gpuaas.security.audience",
                        TestJwt.AUDIENCE,
                        "gpuaas.security.jwks-path",
                        JWT.writeJwks(Files.createTempFile("jwks", ".json")).toString()))) {
            HttpResponse<String> readiness = HTTP.send(
                    HttpRequest.newBuilder(cut.getURI().resolve("/health/readiness"))
                            .timeout(Duration.ofSeconds(20))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> liveness = HTTP.send(
                    HttpRequest.newBuilder(cut.getURI().resolve("/health/liveness"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());

            assertThat(readiness.statusCode()).isEqualTo(503);
            assertThat(readiness.body()).contains("DOWN");
            assertThat(liveness.statusCode()).isEqualTo(200);
        }
    }

    private static void assertProblem(HttpResponse<String> response, int status, String rule) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(response.headers().firstValue("content-type")).hasValue("application/problem+json");
        assertThat(response.body()).contains("\"status\":" + status, "\"rule\":\"" + rule + "\"", "\"detail\":");
        // No Java or framework names: a client learns the rule, not how the service is built.
        assertThat(response.body())
                .doesNotContainPattern("(?i)java\\.|io\\.micronaut|io\\.gpuaas|jackson|netty|exception");
    }

    private static HttpResponse<String> send(String method, String path, String token, String body, String type)
            throws Exception {
        HttpRequest.Builder builder = request(path, token)
                .header("Content-Type", type)
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return HTTP.send(builder.build(), HttpResponse.BodyHandlers.ofString());
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
