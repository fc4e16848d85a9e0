package io.gpuaas.booking.it;

import static io.gpuaas.booking.it.BookingApp.ADMIN;
import static io.gpuaas.booking.it.BookingApp.JWT;
import static io.gpuaas.booking.it.BookingApp.createBody;
import static io.gpuaas.booking.it.BookingApp.hourFromNow;
import static io.gpuaas.booking.it.BookingApp.json;
import static io.gpuaas.booking.it.BookingApp.read;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What an outside tester sent to booking-service and got a 202-then-dead-letter, a 201 or a 500 for: each is now a
 * 4xx problem+json naming the field and the rule, without a Java type in it, and no command of these tests ever
 * reaches the dead-letter topic. The callers are tenants of their own, so their records are recognisable there.
 */
@ExtendWith(KafkaBrokerExtension.class)
class EdgeValidationIT {

    private static final String EDGE =
            JWT.token("erin", "team-edge", List.of("team-edge"), List.of(), Duration.ofHours(1));
    private static final String EDGE_2 =
            JWT.token("ezra", "team-edge2", List.of("team-edge2"), List.of(), Duration.ofHours(1));
    private static final String OTHER =
            JWT.token("olga", "team-other", List.of("team-other"), List.of(), Duration.ofHours(1));
    private static final String ADMIN_NO_TENANT =
            JWT.token("ops", null, List.of(), List.of("admin"), Duration.ofHours(1));
    /** An admin whose own namespaces claim holds team-edge: it may book there for team-edge. */
    private static final String ADMIN_OF_EDGE =
            JWT.token("ops-edge", null, List.of("team-edge"), List.of("admin"), Duration.ofHours(1));

    private static final String FAR_FUTURE = "+1000000000-01-01T00:00:00Z";

    private static BookingApp app;
    private static KafkaBroker kafka;

    @BeforeAll
    static void start(KafkaBroker broker) {
        app = BookingApp.shared(broker);
        kafka = broker;
    }

    @Test
    void shouldRefuseInstantsThatAreNotRfc3339OrBeyondThePolicyWhenCreatingOrChanging() {
        Instant start = hourFromNow(600);
        String location = created(app.post(EDGE, createBody("h200", 1, start, start.plusSeconds(3600), "team-edge")));

        assertProblem(
                app.post(
                        EDGE,
                        createBody("h200", 1, start, start.plusSeconds(3600), "team-edge")
                                .replace(start.plusSeconds(3600).toString(), FAR_FUTURE)),
                400,
                "INVALID_FIELD",
                "end");
        assertProblem(patch(location, "{\"end\":\"" + FAR_FUTURE + "\"}"), 400, "INVALID_FIELD", "end");
        assertProblem(patch(location, "{\"end\":\"2030-01-01 10:00:00Z\"}"), 400, "INVALID_FIELD", "end");
        Instant beyond = hourFromNow(24 * 95);
        assertProblem(
                patch(location, "{\"start\":\"" + beyond + "\",\"end\":\"" + beyond.plusSeconds(3600) + "\"}"),
                422,
                "POLICY_MAX_ADVANCE",
                "end");
        assertProblem(
                patch(location, "{\"end\":\"" + start.plus(Duration.ofDays(15)) + "\"}"),
                422,
                "POLICY_MAX_DURATION",
                "end");
    }

    @Test
    void shouldRefuseAStartOrEndOffTheAlignmentByANanosecond() {
        Instant start = hourFromNow(610);
        String nanos = start.toString().replace("Z", ".000000999Z");

        assertProblem(
                app.post(
                        EDGE,
                        createBody("h200", 1, start, start.plusSeconds(3600), "team-edge")
                                .replace("\"" + start + "\"", "\"" + nanos + "\"")),
                422,
                "POLICY_ALIGNMENT",
                "start");
        String location = created(app.post(EDGE, createBody("h200", 1, start, start.plusSeconds(3600), "team-edge")));
        assertProblem(
                patch(
                        location,
                        "{\"end\":\"" + start.plusSeconds(7200).toString().replace("Z", ".000000001Z") + "\"}"),
                422,
                "POLICY_ALIGNMENT",
                "start");
    }

    @Test
    void shouldBindAnIdempotencyKeyToTheWholeRequest() {
        Instant start = hourFromNow(620);
        String body = createBody("h200", 1, start, start.plusSeconds(3600), "team-edge2");
        HttpResponse<String> first =
                app.send("POST", "/api/v1/bookings", EDGE_2, body, Map.of("Idempotency-Key", "k-1"));
        HttpResponse<String> again =
                app.send("POST", "/api/v1/bookings", EDGE_2, body, Map.of("Idempotency-Key", "k-1"));

        assertThat(first.statusCode()).as(first.body()).isEqualTo(201);
        assertThat(again.statusCode()).as(again.body()).isEqualTo(201);
        assertThat(read(again.body()).get("id")).isEqualTo(read(first.body()).get("id"));
        String otherPool = createBody("h200-mig-3g.71gb", 1, start, start.plusSeconds(3600), "team-edge2");
        assertProblem(
                app.send("POST", "/api/v1/bookings", EDGE_2, otherPool, Map.of("Idempotency-Key", "k-1")),
                422,
                "IDEMPOTENCY_MISMATCH",
                "Idempotency-Key");

        String location = first.headers().firstValue("Location").orElseThrow();
        assertThat(app.send("DELETE", location, EDGE_2, null, Map.of("Idempotency-Key", "k-2"))
                        .statusCode())
                .isEqualTo(200);
        assertProblem(
                app.send("POST", "/api/v1/bookings", EDGE_2, otherPool, Map.of("Idempotency-Key", "k-2")),
                422,
                "IDEMPOTENCY_MISMATCH",
                "Idempotency-Key");
        assertProblem(
                app.send("DELETE", "/api/v1/bookings/no-such-booking", EDGE_2, null, Map.of("Idempotency-Key", "k-3")),
                404,
                "NOT_FOUND",
                "id");
        assertProblem(
                app.send("POST", "/api/v1/bookings", EDGE_2, otherPool, Map.of("Idempotency-Key", "k-3")),
                422,
                "IDEMPOTENCY_MISMATCH",
                "Idempotency-Key");
        assertThat(app.send(
                                "POST",
                                "/api/v1/bookings",
                                OTHER,
                                otherPool.replace("team-edge2", "team-other"),
                                Map.of("Idempotency-Key", "k-3"))
                        .statusCode())
                .as("keys are per tenant")
                .isEqualTo(201);
    }

    @Test
    void shouldAnswer400InsteadOf500ForUnboundedAvailabilityParameters() {
        String base = "/api/v1/pools/h200/availability?";
        Map<String, String> field = new HashMap<>();
        field.put("step=PT9223372036854775807S", "step");
        field.put("from=-1000000000-01-01T00:00:00Z", "from");
        field.put("from=%2B1000000000-12-31T23:59:59Z", "from");
        field.put("to=-1000000000-01-01T00:00:00Z", "to");
        field.put("to=%2B1000000000-12-31T23:59:59Z", "to");
        field.put("quantity=1&duration=PT9223372036854775807S", "duration");
        field.put("from=2001-01-01T00:00:00Z", "from");
        field.put("step=PT1S", "step");
        field.put("quantity=1&duration=PT1H&step=abc", "step");
        field.put("from=" + hourFromNow(1) + "&to=" + hourFromNow(1).plus(Duration.ofDays(90)) + "&step=PT1M", "step");

        field.forEach((query, name) -> assertProblem(app.get(base + query, EDGE), 400, null, name));
    }

    @Test
    void shouldBoundEveryStringFieldAndThePageSize() {
        Instant start = hourFromNow(630);
        String body = createBody("h200", 1, start, start.plusSeconds(3600), "team-edge");

        assertProblem(
                app.post(EDGE, body.replace("}", ",\"purpose\":\"" + "x".repeat(15_000) + "\"}")),
                400,
                "TOO_LONG",
                "purpose");
        assertProblem(app.post(EDGE, body.replace("\"h200\"", "\"" + "p".repeat(100) + "\"")), 400, "TOO_LONG", "pool");
        assertProblem(app.post(EDGE, body.replace("\"team-edge\"", "\"Team_Edge\"")), 400, "INVALID_NAME", "namespace");
        assertProblem(
                app.send("POST", "/api/v1/bookings", EDGE, body, Map.of("Idempotency-Key", "k".repeat(300))),
                400,
                "INVALID_IDEMPOTENCY_KEY",
                "Idempotency-Key");
        assertProblem(app.get("/api/v1/bookings?limit=501", EDGE), 400, "INVALID_PAGE_SIZE", "limit");
        assertProblem(app.get("/api/v1/bookings?limit=lots", EDGE), 400, "INVALID_PAGE_SIZE", "limit");
        assertProblem(
                app.get("/api/v1/bookings?from=" + FAR_FUTURE.replace("+", "%2B"), EDGE),
                400,
                "INVALID_PARAMETER",
                "from");
        HttpResponse<String> page = app.get("/api/v1/bookings", EDGE);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(read(page.body())).containsKey("items");
    }

    @Test
    void shouldMakeAdminsNameTheTenantTheyBookFor() {
        Instant start = hourFromNow(640);
        String body = createBody("h200", 1, start, start.plusSeconds(3600), "team-edge");
        String forEdge = body.replace("}", ",\"tenant\":\"team-edge\"}");

        assertProblem(app.post(ADMIN_NO_TENANT, body), 422, "TENANT_REQUIRED", "tenant");
        assertProblem(app.post(ADMIN, body), 422, "TENANT_REQUIRED", "tenant");
        assertProblem(
                app.post(EDGE, body.replace("}", ",\"tenant\":\"team-other\"}")), 403, "TENANT_NOT_OWNED", "tenant");
        HttpResponse<String> booked = app.post(ADMIN_OF_EDGE, forEdge);
        assertThat(booked.statusCode()).as(booked.body()).isEqualTo(201);
        assertThat(read(booked.body())).containsEntry("tenant", "team-edge");
        Instant later = start.plusSeconds(7200);
        HttpResponse<String> own = app.post(
                EDGE,
                createBody("h200", 1, later, later.plusSeconds(3600), "team-edge")
                        .replace("}", ",\"tenant\":\"team-edge\"}"));
        assertThat(own.statusCode()).as(own.body()).isEqualTo(201);
        assertThat(app.get(booked.headers().firstValue("Location").orElseThrow(), EDGE)
                        .statusCode())
                .as("the tenant sees the booking an admin made for it")
                .isEqualTo(200);
    }

    @Test
    void shouldRefuseAnAdminBookingANamespaceOutsideItsOwnNamespacesClaim() {
        Instant start = hourFromNow(660);
        String edgeForEdge = createBody("h200", 1, start, start.plusSeconds(3600), "team-edge")
                .replace("}", ",\"tenant\":\"team-edge\"}");
        String edgeForPlatform = createBody("h200", 1, start, start.plusSeconds(3600), "team-edge")
                .replace("}", ",\"tenant\":\"platform\"}");
        String otherForEdge = createBody("h200", 1, start, start.plusSeconds(3600), "team-other")
                .replace("}", ",\"tenant\":\"team-edge\"}");

        assertProblem(app.post(ADMIN_NO_TENANT, edgeForEdge), 403, "NAMESPACE_NOT_OWNED", "namespace");
        assertProblem(app.post(ADMIN, edgeForPlatform), 403, "NAMESPACE_NOT_OWNED", "namespace");
        assertProblem(app.post(ADMIN_OF_EDGE, otherForEdge), 403, "NAMESPACE_NOT_OWNED", "namespace");
    }

    @Test
    void shouldSayWhatIsWrongWithoutNamingJavaTypes() {
        assertProblem(app.post(EDGE, "{\"pool\":\"h200\",\"quantity\":\"two\"}"), 400, "INVALID_FIELD", "quantity");
        assertProblem(app.post(EDGE, "{\"pool\":\"h200\",\"quantity\":1,\"start\":5}"), 400, "INVALID_FIELD", "start");
        assertProblem(app.post(EDGE, "{\"pool\":[\"h200\"]}"), 400, "INVALID_FIELD", "pool");
        assertProblem(app.post(EDGE, "[1,2]"), 400, "MALFORMED_JSON", "body");
        assertProblem(
                app.post(EDGE, "{\"pool\":\"h200\",\"pool\":\"h200-mig-3g.71gb\"}"), 400, "MALFORMED_JSON", "body");
        assertProblem(app.get("/api/v1/bookings?state=SOON", EDGE), 400, "INVALID_STATE_FILTER", "state");
        assertProblem(
                app.get("/api/v1/pools/h200/availability?quantity=x&duration=PT1H", EDGE),
                400,
                "INVALID_QUANTITY",
                "quantity");
    }

    /** Nothing these tests sent became a dead letter: every bad request stopped at the edge. */
    @AfterAll
    static void shouldHaveDeadLetteredNothingOfTheseTenants() {
        Map<String, Object> config = kafka.clientProperties();
        String topic = app.prefix + "dead-letter";
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(10)).stream()
                    .map(p -> new TopicPartition(topic, p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                consumer.poll(Duration.ofMillis(200)).forEach(r -> assertThat(new String(r.value(), UTF_8))
                        .doesNotContain("team-edge")
                        .doesNotContain("team-other"));
            }
        }
    }

    private static HttpResponse<String> patch(String location, String body) {
        return app.send("PATCH", location, EDGE, body, Map.of());
    }

    private static String created(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        return response.headers().firstValue("Location").orElseThrow();
    }

    private static void assertProblem(HttpResponse<String> response, int status, String rule, String field) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
        Map<String, Object> problem = read(response.body());
        assertThat(problem)
                .containsEntry("status", status)
                .containsEntry("field", field)
                .containsKey("detail");
        if (rule != null) {
            assertThat(problem).containsEntry("rule", rule);
        }
        assertThat(response.body()).doesNotContainPattern("io\\.gpuaas|java\\.|\\$|Exception|com\\.fasterxml");
        assertThat(json(problem).length()).isLessThan(2_000);
    }
}
