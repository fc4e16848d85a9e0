package io.gpuaas.system.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.system.reliability.support.HttpCalls;
import io.gpuaas.system.reliability.support.KafkaProbe;
import io.gpuaas.system.reliability.support.ReliabilityStack;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every request an outside tester found getting past the HTTP edge (issue #14), replayed against the four services in
 * their own JVMs with authenticated Kafka: each must now get the status named here, as problem+json without Java or
 * framework names, and none may leave a dead letter or a {@code ReclaimFailed} behind (either would fire an alert).
 */
class AdversarialHttpIT {

    private static final Pattern INTERNALS =
            Pattern.compile("io\\.gpuaas|io\\.micronaut|java\\.lang|com\\.fasterxml|\\$[A-Z]|Exception|\\tat ");
    private static final Instant FAR = Instant.now().plus(Duration.ofDays(12)).truncatedTo(ChronoUnit.HOURS);

    private static ReliabilityStack stack;
    private static KafkaProbe kafka;
    private static int deadLettersBefore;
    private static int reclaimFailedBefore;
    private static String booking;

    @BeforeAll
    static void start() throws Exception {
        stack = ReliabilityStack.shared();
        stack.ensureAllHealthy(Duration.ofSeconds(180));
        kafka = stack.probe();
        deadLettersBefore = kafka.readAll("gpuaas.dead-letter").size();
        reclaimFailedBefore = reclaimFailed();
        HttpCalls.Response created = post(
                "/api/v1/bookings",
                "team-a",
                body("h200", 1, FAR, FAR.plus(Duration.ofHours(1)), "team-a", null),
                Map.of());
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        booking = created.body().replaceAll("(?s).*\"id\"\\s*:\\s*\"([^\"]+)\".*", "$1");
    }

    @AfterAll
    static void nothingReachedTheAlerts() {
        if (kafka == null) {
            return;
        }
        assertThat(kafka.readAll("gpuaas.dead-letter"))
                .as("dead letters after the adversarial requests")
                .hasSize(deadLettersBefore);
        assertThat(reclaimFailed())
                .as("ReclaimFailed events after the adversarial requests")
                .isEqualTo(reclaimFailedBefore);
    }

    @Test
    void shouldRefuseResumeNamesThatAreNotKubernetesNamesWith400() {
        for (String name : List.of(
                "..%2F..%2Fteam-b%2Finferenceservices%2Fdemo-llm",
                "a%20b", "a%0d%0ab", "UPPER", "-leading", "x".repeat(254))) {
            problem(
                    400,
                    stack.http()
                            .send(
                                    "POST",
                                    stack.url("idle-reclaimer") + "/api/v1/workloads/team-a/InferenceService/" + name
                                            + "/resume",
                                    stack.token("team-a"),
                                    null,
                                    Map.of()),
                    "resume " + name);
        }
        problem(
                400,
                stack.http()
                        .send(
                                "POST",
                                stack.url("idle-reclaimer") + "/api/v1/workloads/Team_A/RayCluster/demo-ray/resume",
                                stack.token("admin"),
                                null,
                                Map.of()),
                "bad namespace");
    }

    @Test
    void shouldRateLimitResumesPerTenantWith429() {
        List<Integer> statuses = new ArrayList<>();
        HttpCalls.Response limited = null;
        for (int i = 0; i < 40 && limited == null; i++) {
            HttpCalls.Response r = stack.http()
                    .send(
                            "POST",
                            stack.url("idle-reclaimer") + "/api/v1/workloads/team-b/RayCluster/not-there/resume",
                            stack.token("team-b"),
                            null,
                            Map.of());
            statuses.add(r.status());
            if (r.status() == 429) {
                limited = r;
            }
        }
        assertThat(limited)
                .as("a 429 within 40 quick resumes, got %s", statuses)
                .isNotNull();
        problem(429, limited, "rate-limited resume");
    }

    @Test
    void shouldRefuseAnEndBeyondRfc3339At400WithoutADeadLetter() {
        problem(
                400,
                send(
                        "PATCH",
                        "/api/v1/bookings/" + booking,
                        "team-a",
                        "{\"end\":\"+1000000000-01-01T00:00:00Z\"}",
                        Map.of()),
                "end in year 1,000,000,000");
    }

    @Test
    void shouldRefuseInstantsOffTheAlignmentByANanosecond() {
        Instant start = FAR.plus(Duration.ofDays(1)).plusNanos(999);
        HttpCalls.Response r = post(
                "/api/v1/bookings",
                "team-a",
                body("h200", 1, start, start.plus(Duration.ofHours(1)), "team-a", null),
                Map.of());
        assertThat(r.status()).as(r.body()).isBetween(400, 422);
        problem(r.status(), r, "start 999 ns past alignment");
    }

    @Test
    void shouldBindAnIdempotencyKeyToTheWholeRequest() {
        // All to one replica, as from one client connection: a key spent on a 404 at the edge is bound only in the
        // memory of the replica that answered (no command reaches the topic for the other replica to learn it from),
        // and a key bound by a command is learnt by the other replica only once it has read that command back.
        String replica = stack.url(stack.replica("booking-service", 1));
        String key = "adv-" + UUID.randomUUID();
        Instant start = FAR.plus(Duration.ofDays(2));
        String first = body("h200", 1, start, start.plus(Duration.ofHours(1)), "team-a", null);
        Map<String, String> keyed = Map.of("Idempotency-Key", key);
        assertThat(sendTo(replica, "POST", "/api/v1/bookings", "team-a", first, keyed)
                        .status())
                .isEqualTo(201);
        assertThat(sendTo(replica, "POST", "/api/v1/bookings", "team-a", first, keyed)
                        .status())
                .as("the same request again is a replay")
                .isIn(200, 201);
        String otherPool = stack.http()
                .get(replica + "/api/v1/pools", stack.token("team-a"))
                .body()
                .replaceAll("(?s).*\"id\"\\s*:\\s*\"(h200-mig[^\"]*)\".*", "$1");
        problem(
                422,
                sendTo(
                        replica,
                        "POST",
                        "/api/v1/bookings",
                        "team-a",
                        body(otherPool, 1, start, start.plus(Duration.ofHours(1)), "team-a", null),
                        keyed),
                "key reused for another pool");

        String deleteKey = "adv-del-" + UUID.randomUUID();
        int deleted = sendTo(
                        replica,
                        "DELETE",
                        "/api/v1/bookings/" + booking + "-nope",
                        "team-a",
                        null,
                        Map.of("Idempotency-Key", deleteKey))
                .status();
        assertThat(deleted).isEqualTo(404);
        Instant later = start.plus(Duration.ofDays(1));
        problem(
                422,
                sendTo(
                        replica,
                        "POST",
                        "/api/v1/bookings",
                        "team-a",
                        body("h200", 1, later, later.plus(Duration.ofHours(1)), "team-a", null),
                        Map.of("Idempotency-Key", deleteKey)),
                "key first used by a DELETE");
    }

    @Test
    void shouldAnswerOutOfRangeAvailabilityQueriesWith400() {
        for (String query : List.of(
                "step=PT9223372036854775807S",
                "from=-1000000000-01-01T00:00:00Z",
                "from=%2B1000000000-12-31T23:59:59Z",
                "to=-1000000000-01-01T00:00:00Z",
                "to=%2B1000000000-12-31T23:59:59Z",
                "duration=PT9223372036854775807S",
                "step=PT0S",
                "step=-PT1H",
                "duration=-PT1H")) {
            problem(
                    400,
                    stack.http()
                            .get(
                                    stack.url("booking-service") + "/api/v1/pools/h200/availability?" + query,
                                    stack.token("team-a")),
                    "availability " + query);
        }
    }

    @Test
    void shouldBoundStringsAndMakeAdminsNameTheTenant() {
        Instant start = FAR.plus(Duration.ofDays(4));
        problem(
                400,
                post(
                        "/api/v1/bookings",
                        "team-a",
                        body("h200", 1, start, start.plus(Duration.ofHours(1)), "team-a", "p".repeat(15_000)),
                        Map.of()),
                "15 KB purpose");
        problem(
                422,
                post(
                        "/api/v1/bookings",
                        "admin",
                        body("h200", 1, start, start.plus(Duration.ofHours(1)), "team-a", null),
                        Map.of()),
                "admin booking without tenant");
    }

    @Test
    void shouldAnswerFrameworkErrorsAsProblemsWithoutInternals() {
        for (String service : ReliabilityStack.serviceNames()) {
            for (String endpoint : List.of("/beans", "/routes", "/info", "/threaddump", "/env", "/loggers")) {
                HttpCalls.Response r = stack.http().get(stack.url(service) + endpoint, stack.token("admin"));
                assertThat(r.status()).as(service + endpoint).isBetween(400, 499);
                noInternals(r, service + endpoint);
            }
            HttpCalls.Response health = stack.http().get(stack.url(service) + "/health", null);
            assertThat(health.status()).as(service + " /health").isIn(200, 503);
            assertThat(health.body())
                    .as(service + " anonymous /health")
                    .doesNotContain("details", "clusterId", "diskSpace", "free", "state");
        }
        problem(
                413,
                post("/api/v1/bookings", "team-a", "{\"purpose\":\"" + "x".repeat(40_000) + "\"}", Map.of()),
                "413");
        problem(405, send("PUT", "/api/v1/pools", "team-a", "{}", Map.of()), "405");
        problem(404, stack.http().get(stack.url("booking-service") + "/assets/nothing-here.js", null), "static 404");
        problem(
                400,
                post("/api/v1/bookings", "team-a", "{\"pool\":\"h200\",\"quantity\":\"two\"}", Map.of()),
                "mistyped field");
        problem(400, post("/api/v1/bookings", "team-a", "{\"pool\":", Map.of()), "broken JSON");
    }

    @Test
    void shouldRefuseTokensWithoutExpiryBeforeNbfOrForAnotherIssuerOrAudienceWith401() {
        var jwt = stack.jwt();
        List<String> ns = List.of("team-a");
        Map<String, String> tokens = Map.of(
                "no exp", jwt.tokenWithoutExpiry("team-a-user", "team-a", ns, List.of()),
                "nbf in an hour",
                        jwt.tokenNotBefore(
                                Instant.now().plus(Duration.ofHours(1)), "team-a-user", "team-a", ns, List.of()),
                "other issuer", jwt.tokenWithIssuer("https://evil.example", "team-a-user", "team-a", ns, List.of()),
                "other audience",
                        jwt.tokenWithAudience(List.of("someone-else"), "team-a-user", "team-a", ns, List.of()));
        tokens.forEach((what, token) -> {
            for (String service : ReliabilityStack.serviceNames()) {
                String path = service.equals("booking-service") ? "/api/v1/bookings" : "/metrics";
                HttpCalls.Response r = stack.http().get(stack.url(service) + path, token);
                assertThat(r.status()).as(service + " with a token: " + what).isEqualTo(401);
                noInternals(r, service + " " + what);
            }
        });
    }

    private static void problem(int status, HttpCalls.Response r, String what) {
        assertThat(r.status()).as("%s → %s", what, r.body()).isEqualTo(status);
        assertThat(r.body())
                .as(what + " is a problem document")
                .contains("\"status\"")
                .contains("\"title\"");
        noInternals(r, what);
    }

    private static void noInternals(HttpCalls.Response r, String what) {
        assertThat(INTERNALS.matcher(r.body()).find())
                .as("%s leaks internals: %s", what, r.body())
                .isFalse();
    }

    private static HttpCalls.Response post(String path, String who, String body, Map<String, String> headers) {
        return send("POST", path, who, body, headers);
    }

    private static HttpCalls.Response send(
            String method, String path, String who, String body, Map<String, String> headers) {
        return sendTo(stack.url("booking-service"), method, path, who, body, headers);
    }

    private static HttpCalls.Response sendTo(
            String base, String method, String path, String who, String body, Map<String, String> headers) {
        return stack.http().send(method, base + path, stack.token(who), body, headers);
    }

    private static String body(
            String pool, int quantity, Instant start, Instant end, String namespace, String purpose) {
        return "{\"pool\":\"" + pool + "\",\"quantity\":" + quantity + ",\"start\":\"" + start + "\",\"end\":\"" + end
                + "\",\"namespace\":\"" + namespace + "\"" + (purpose == null ? "" : ",\"purpose\":\"" + purpose + "\"")
                + "}";
    }

    private static int reclaimFailed() {
        return (int) kafka.readAll("gpuaas.reclaim-events").stream()
                .filter(r -> "io.gpuaas.reclaim.failed.v1".equals(KafkaProbe.header(r, "ce_type")))
                .count();
    }
}
