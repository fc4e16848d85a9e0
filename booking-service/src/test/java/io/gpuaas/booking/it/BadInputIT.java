package io.gpuaas.booking.it;

import static io.gpuaas.booking.it.BookingApp.JWT;
import static io.gpuaas.booking.it.BookingApp.TEAM_A;
import static io.gpuaas.booking.it.BookingApp.TEAM_B;
import static io.gpuaas.booking.it.BookingApp.createBody;
import static io.gpuaas.booking.it.BookingApp.hourFromNow;
import static io.gpuaas.booking.it.BookingApp.read;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gpuaas.booking.DeadLetterTopic;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Every bad request gets application/problem+json naming the field and the rule; every unreadable record on an input
 * topic goes to the dead-letter topic, counted once in {@code /metrics}, and the service keeps answering.
 */
@ExtendWith(KafkaBrokerExtension.class)
class BadInputIT {

    private static final Instant START = hourFromNow(400);
    private static BookingApp app;
    private static KafkaBroker kafka;

    @BeforeAll
    static void start(KafkaBroker broker) {
        app = BookingApp.shared(broker);
        kafka = broker;
    }

    @Test
    void shouldDeadLetterUnreadableRecordsOfEveryInputTopicAndKeepAnswering() throws Exception {
        byte[] garbage = "{not json".getBytes(UTF_8);
        List<RecordMetadata> poisons = new ArrayList<>();
        try (var producer =
                new KafkaProducer<>(kafka.clientProperties(), new ByteArraySerializer(), new ByteArraySerializer())) {
            // Commands keyed by the pool land where h200 is decided; the feed topics on partition 0.
            poisons.add(producer.send(
                            new ProducerRecord<>(app.prefix + "booking-commands", "h200".getBytes(UTF_8), garbage))
                    .get());
            for (String topic : List.of("booking-events", "bookings")) {
                poisons.add(producer.send(new ProducerRecord<>(app.prefix + topic, 0, "h200".getBytes(UTF_8), garbage))
                        .get());
            }
        }

        Map<String, ConsumerRecord<byte[], byte[]>> letters = DeadLetterTopic.awaitLetters(
                kafka,
                app.prefix + "dead-letter",
                poisons.stream()
                        .map(m -> DeadLetterTopic.where(m.topic(), m.partition(), m.offset()))
                        .toList());
        for (RecordMetadata sent : poisons) {
            ConsumerRecord<byte[], byte[]> letter =
                    letters.get(DeadLetterTopic.where(sent.topic(), sent.partition(), sent.offset()));
            assertThat(letter.key()).isEqualTo("h200".getBytes(UTF_8));
            assertThat(letter.value()).isEqualTo(garbage);
            DeadLetterTopic.assertHeaders(
                    letter.headers(), "MISSING_TYPE", sent.topic(), sent.partition(), sent.offset(), sent.timestamp());
        }
        String scraper = JWT.token("prom", "platform", List.of(), List.of("metrics"), Duration.ofMinutes(5));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            List<String> metrics = app.get("/metrics", scraper).body().lines().toList();
            assertThat(metrics)
                    .filteredOn(line -> line.startsWith("# TYPE gpuaas_dead_letter_records_total "))
                    .hasSize(1);
            assertThat(metrics)
                    .filteredOn(line -> line.startsWith("gpuaas_dead_letter_records_total{")
                            && line.contains("reason=\"MISSING_TYPE\""))
                    .hasSize(3);
        });
        Instant start = hourFromNow(500);
        HttpResponse<String> after = app.post(TEAM_A, createBody("h200", 1, start, start.plusSeconds(3600), "team-a"));
        assertThat(after.statusCode()).as(after.body()).isEqualTo(201);
    }

    @Test
    void shouldNameTheFieldAndRuleWhenTheBodyIsWrong() {
        assertProblem(app.post(TEAM_A, "{\"pool\": \"h200\", "), 400, "MALFORMED_JSON", "body");
        assertProblem(app.post(TEAM_A, "{\"pool\":\"h200\",\"quantity\":\"two\"}"), 400, "INVALID_FIELD", "quantity");
        assertProblem(
                app.post(TEAM_A, "{\"pool\":\"h200\",\"quantity\":1,\"start\":\"tomorrow\"}"),
                400,
                "INVALID_FIELD",
                "start");
        assertProblem(app.post(TEAM_A, "{\"pool\":\"h200\",\"quantity\":1}"), 400, "REQUIRED", "end");
        assertProblem(
                app.post(TEAM_A, createBody("a100", 1, START, START.plusSeconds(3600), "team-a")),
                404,
                "UNKNOWN_POOL",
                "pool");
        assertProblem(app.post(TEAM_A, createBody("h200", 1, START, START, "team-a")), 400, "INVALID_WINDOW", "end");
        assertProblem(
                app.post(TEAM_A, createBody("h200", 1, START.minus(Duration.ofDays(30)), START, "team-a")),
                400,
                "START_IN_PAST",
                "start");
        assertProblem(
                app.post(TEAM_A, createBody("h200", 0, START, START.plusSeconds(3600), "team-a")),
                400,
                "INVALID_QUANTITY",
                "quantity");
        assertProblem(
                app.post(TEAM_A, createBody("h200", 9, START, START.plusSeconds(3600), "team-a")),
                400,
                "INVALID_QUANTITY",
                "quantity");
        assertProblem(
                app.post(TEAM_A, createBody("h200", 1, START.plusSeconds(60), START.plusSeconds(3600), "team-a")),
                422,
                "POLICY_ALIGNMENT",
                "start");
        assertProblem(
                app.post(TEAM_A, createBody("h200", 1, START, START.plusSeconds(3600), "team-b")),
                403,
                "NAMESPACE_NOT_OWNED",
                "namespace");
    }

    @Test
    void shouldRefuseAFractionalOrQuotedQuantityInsteadOfRoundingIt() {
        String body = createBody("h200", 1, START, START.plusSeconds(3600), "team-a");

        assertProblem(
                app.post(TEAM_A, body.replace("\"quantity\":1", "\"quantity\":1.5")), 400, "INVALID_FIELD", "quantity");
        assertProblem(
                app.post(TEAM_A, body.replace("\"quantity\":1", "\"quantity\":\"1\"")),
                400,
                "INVALID_FIELD",
                "quantity");
    }

    @Test
    void shouldAnswer415WhenTheContentTypeNamesAnUnknownCharset() {
        String body = createBody("h200", 1, START, START.plusSeconds(3600), "team-a");

        HttpResponse<String> response = app.send(
                "POST",
                "/api/v1/bookings",
                TEAM_A,
                body,
                java.util.Map.of("Content-Type", "application/json; charset=latin-1"));

        assertProblem(response, 415, "UNSUPPORTED_CHARSET", "Content-Type");
    }

    @Test
    void shouldAnswer413WhenTheBodyIsOversized() {
        String purpose = "x".repeat(40_000);
        HttpResponse<String> response = app.post(TEAM_A, "{\"purpose\":\"" + purpose + "\"}");

        assertProblem(response, 413, "BODY_TOO_LARGE", "body");
    }

    @Test
    void shouldAnswer401WhenTheTokenIsMissingExpiredOrForeign() {
        assertProblem(app.get("/api/v1/bookings", null), 401, "UNAUTHENTICATED", "Authorization");
        assertProblem(
                app.get("/api/v1/bookings", JWT.expiredToken("eve", "team-a", List.of("team-a"), List.of())),
                401,
                "UNAUTHENTICATED",
                "Authorization");
        assertProblem(
                app.get(
                        "/api/v1/bookings",
                        JWT.tokenSignedByOtherKey(
                                "eve", "team-a", List.of("team-a"), List.of(), Duration.ofMinutes(5))),
                401,
                "UNAUTHENTICATED",
                "Authorization");
        assertProblem(app.get("/api/v1/bookings", "not-a-jwt"), 401, "UNAUTHENTICATED", "Authorization");
    }

    @Test
    void shouldAnswer404WhenAnotherTenantsBookingIsAskedFor() {
        HttpResponse<String> created =
                app.post(TEAM_A, createBody("h200", 1, START, START.plusSeconds(3600), "team-a"));
        String location = created.headers().firstValue("Location").orElseThrow();

        assertProblem(app.get(location, TEAM_B), 404, "NOT_FOUND", "id");
        assertProblem(app.send("DELETE", location, TEAM_B, null, Map.of()), 404, "NOT_FOUND", "id");
        assertProblem(
                app.send("PATCH", location, TEAM_B, "{\"end\":\"" + START.plusSeconds(7200) + "\"}", Map.of()),
                404,
                "NOT_FOUND",
                "id");
    }

    @Test
    void shouldAnswer429WhenOneTenantSendsTooManyRequests() {
        String noisy = JWT.token("mallory", "team-noisy", List.of("team-noisy"), List.of(), Duration.ofMinutes(5));
        HttpResponse<String> last;
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<CompletableFuture<HttpResponse<String>>> burst = IntStream.range(0, 400)
                    .mapToObj(i -> CompletableFuture.supplyAsync(() -> app.get("/api/v1/pools", noisy), threads))
                    .toList();
            last = burst.stream()
                    .map(CompletableFuture::join)
                    .filter(r -> r.statusCode() == 429)
                    .findFirst()
                    .orElseThrow();
        }

        assertProblem(last, 429, "RATE_LIMITED", null);
        assertThat(last.headers().firstValue("Retry-After"))
                .hasValueSatisfying(
                        seconds -> assertThat(Long.parseLong(seconds)).isPositive());
        assertThat(read(last.body())).containsKey("retryAfterSeconds");
        assertThat(app.get("/api/v1/pools", TEAM_B).statusCode()).isEqualTo(200);
    }

    private static void assertProblem(HttpResponse<String> response, int status, String rule, String field) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
        Map<String, Object> problem = read(response.body());
        assertThat(problem)
                .containsEntry("status", status)
                .containsEntry("rule", rule)
                .containsKey("detail");
        if (field != null) {
            assertThat(problem).containsEntry("field", field);
        }
    }
}
