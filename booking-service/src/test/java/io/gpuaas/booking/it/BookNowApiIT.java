package io.gpuaas.booking.it;

import static io.gpuaas.booking.it.BookingApp.ADMIN;
import static io.gpuaas.booking.it.BookingApp.TEAM_A;
import static io.gpuaas.booking.it.BookingApp.TEAM_B;
import static io.gpuaas.booking.it.BookingApp.createBody;
import static io.gpuaas.booking.it.BookingApp.hourFromNow;
import static io.gpuaas.booking.it.BookingApp.json;
import static io.gpuaas.booking.it.BookingApp.read;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Book now, end now, extend from now over HTTP, against the real broker and the shared service (15-minute alignment).
 * Each test books now on a pool of its own, or few units, so the tests sharing the service do not take each other's
 * capacity.
 */
@ExtendWith(KafkaBrokerExtension.class)
class BookNowApiIT {

    private static final Duration QUARTER = Duration.ofMinutes(15);

    private static BookingApp app;

    @BeforeAll
    static void start(KafkaBroker broker) {
        app = BookingApp.shared(broker);
    }

    @Test
    void shouldBookFromTheDecisionAndRoundTheEndUpWhenStartIsOmittedAndADurationGiven() {
        Instant before = Instant.now();
        HttpResponse<String> created = app.post(TEAM_A, nowBody("h200-mig-1g.18gb", 1, "team-a", "PT1H"));
        Instant after = Instant.now();

        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        Map<String, Object> booking = read(created.body());
        assertThat(booking).containsEntry("state", "ACTIVE");
        Instant start = Instant.parse((String) booking.get("start"));
        assertThat(start).isBetween(before.minusSeconds(1), after);
        assertThat(Instant.parse((String) booking.get("end")))
                .isEqualTo(quarterAtOrAfter(start.plus(Duration.ofHours(1))));
        String location = created.headers().firstValue("Location").orElseThrow();
        assertThat(read(app.get(location, TEAM_A).body())).containsEntry("state", "ACTIVE");
    }

    @Test
    void shouldBookFromNowUntilTheGivenEndWhenStartIsTheWordNow() {
        Instant end = quarterAtOrAfter(Instant.now().plus(Duration.ofMinutes(20)));
        Map<String, Object> body = body("h200", 1, "team-a");
        body.put("start", "now");
        body.put("end", end.toString());

        HttpResponse<String> created = app.post(TEAM_A, json(body));

        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        assertThat(read(created.body())).containsEntry("state", "ACTIVE").containsEntry("end", end.toString());
    }

    @Test
    void shouldReturnTheSameBookingWhenABookNowIsRepeatedWithItsIdempotencyKey() throws InterruptedException {
        String body = nowBody("h200", 1, "team-a-dev", "PT30M");
        Map<String, String> key = Map.of("Idempotency-Key", "book-now-" + System.nanoTime());

        HttpResponse<String> first = app.send("POST", "/api/v1/bookings", TEAM_A, body, key);
        Thread.sleep(50);
        HttpResponse<String> again = app.send("POST", "/api/v1/bookings", TEAM_A, body, key);

        assertThat(first.statusCode()).as(first.body()).isEqualTo(201);
        assertThat(again.statusCode()).as(again.body()).isEqualTo(201);
        assertThat(read(again.body()))
                .containsEntry("id", read(first.body()).get("id"))
                .containsEntry("start", read(first.body()).get("start"))
                .containsEntry("state", "ACTIVE");
    }

    @Test
    void shouldReleaseTheRestAndFreeTheUnitsWhenTheOwnerEndsAnActiveBookingNow() {
        String whole = nowBody("h200-mig-2g.35gb", 9, "team-a", "PT45M");
        HttpResponse<String> created = app.post(TEAM_A, whole);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        String location = created.headers().firstValue("Location").orElseThrow();
        assertThat(app.post(TEAM_B, nowBody("h200-mig-2g.35gb", 1, "team-b", "PT15M"))
                        .statusCode())
                .as("the pool is full while the booking holds it")
                .isEqualTo(409);

        HttpResponse<String> ended = app.send("POST", location + "/end", TEAM_A, null, Map.of());

        assertThat(ended.statusCode()).as(ended.body()).isEqualTo(200);
        Map<String, Object> released = read(ended.body());
        assertThat(released)
                .containsEntry("state", "RELEASED")
                .containsEntry("end", read(created.body()).get("end"));
        assertThat(read(app.get(location, TEAM_A).body())).containsEntry("state", "RELEASED");
        HttpResponse<String> next = app.post(TEAM_B, nowBody("h200-mig-2g.35gb", 9, "team-b", "PT15M"));
        assertThat(next.statusCode())
                .as("the whole pool is free again: " + next.body())
                .isEqualTo(201);
        assertThat(app.send(
                                "POST",
                                next.headers().firstValue("Location").orElseThrow() + "/end",
                                TEAM_B,
                                null,
                                Map.of())
                        .statusCode())
                .isEqualTo(200);
    }

    @Test
    void shouldAnswer409WhenEndingABookingThatIsNotActive() {
        Instant start = hourFromNow(700);
        HttpResponse<String> upcoming =
                app.post(TEAM_A, createBody("h200", 1, start, start.plusSeconds(3600), "team-a"));
        String location = upcoming.headers().firstValue("Location").orElseThrow();

        HttpResponse<String> early = app.send("POST", location + "/end", TEAM_A, null, Map.of());
        app.send("DELETE", location, TEAM_A, null, Map.of());
        HttpResponse<String> cancelled = app.send("POST", location + "/end", TEAM_A, null, Map.of());

        assertProblem(early, 409, "INVALID_STATE");
        assertThat(read(early.body()).get("detail").toString()).contains("CONFIRMED", "ACTIVE");
        assertProblem(cancelled, 409, "INVALID_STATE");
    }

    @Test
    void shouldLetOnlyTheOwnerOrAnAdminEndABookingWhenAnotherTenantTries() {
        HttpResponse<String> created = app.post(TEAM_A, nowBody("h200-mig-3g.71gb", 1, "team-a", "PT15M"));
        String location = created.headers().firstValue("Location").orElseThrow();

        HttpResponse<String> byOther = app.send("POST", location + "/end", TEAM_B, null, Map.of());
        HttpResponse<String> byAdmin = app.send("POST", location + "/end", ADMIN, null, Map.of());

        assertProblem(byOther, 404, "NOT_FOUND");
        assertThat(byAdmin.statusCode()).as(byAdmin.body()).isEqualTo(200);
        assertThat(read(byAdmin.body())).containsEntry("state", "RELEASED").containsEntry("tenant", "team-a");
    }

    @Test
    void shouldExtendAnActiveBookingFromNowWhenPatchedWithADuration() {
        HttpResponse<String> created = app.post(TEAM_A, nowBody("h200", 1, "team-a", "PT15M"));
        String location = created.headers().firstValue("Location").orElseThrow();
        Instant before = Instant.now();

        HttpResponse<String> extended = app.send("PATCH", location, TEAM_A, json(Map.of("duration", "PT2H")), Map.of());

        assertThat(extended.statusCode()).as(extended.body()).isEqualTo(200);
        Map<String, Object> booking = read(extended.body());
        assertThat(booking).containsEntry("start", read(created.body()).get("start"));
        Instant end = Instant.parse((String) booking.get("end"));
        assertThat(end)
                .isBetween(
                        quarterAtOrAfter(before.plus(Duration.ofHours(2))),
                        quarterAtOrAfter(Instant.now().plus(Duration.ofHours(2))));
    }

    @Test
    void shouldAnswer400NamingTheDurationWhenItIsNotAPositiveIso8601Duration() {
        for (String bad : new String[] {"2 hours", "PT-1H", "PT0S", "P", "120"}) {
            assertProblem(app.post(TEAM_A, nowBody("h200", 1, "team-a", bad)), 400, "INVALID_DURATION");
        }
        Map<String, Object> number = body("h200", 1, "team-a");
        number.put("duration", 7200);
        assertProblem(app.post(TEAM_A, json(number)), 400, "INVALID_FIELD");
        Map<String, Object> both = body("h200", 1, "team-a");
        both.put("duration", "PT1H");
        both.put(
                "end", quarterAtOrAfter(Instant.now().plus(Duration.ofHours(1))).toString());
        assertProblem(app.post(TEAM_A, json(both)), 400, "INVALID_WINDOW");
        assertProblem(app.post(TEAM_A, nowBody("h200", 1, "team-a", "P15D")), 422, "POLICY_MAX_DURATION");
    }

    private static Map<String, Object> body(String pool, int quantity, String namespace) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("pool", pool);
        body.put("quantity", quantity);
        body.put("namespace", namespace);
        return body;
    }

    /** A book-now body: no start, a duration. */
    private static String nowBody(String pool, int quantity, String namespace, String duration) {
        Map<String, Object> body = body(pool, quantity, namespace);
        body.put("duration", duration);
        return json(body);
    }

    private static Instant quarterAtOrAfter(Instant t) {
        long step = QUARTER.toMillis();
        long ms = t.toEpochMilli();
        return Instant.ofEpochMilli(ms % step == 0 && t.getNano() % 1_000_000 == 0 ? ms : (ms / step + 1) * step);
    }

    private static void assertProblem(HttpResponse<String> response, int status, String rule) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
        assertThat(read(response.body())).containsEntry("status", status).containsEntry("rule", rule);
    }
}
