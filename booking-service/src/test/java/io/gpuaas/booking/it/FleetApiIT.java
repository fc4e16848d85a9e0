package io.gpuaas.booking.it;

import static io.gpuaas.booking.it.BookingApp.ADMIN;
import static io.gpuaas.booking.it.BookingApp.TEAM_A;
import static io.gpuaas.booking.it.BookingApp.TEAM_B;
import static io.gpuaas.booking.it.FleetFixture.FLEX;
import static io.gpuaas.booking.it.FleetFixture.booking;
import static io.gpuaas.booking.it.FleetFixture.hoursAhead;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpuaas.events.Json;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.booking.PlacedUnit;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The flexible-pool reads over real HTTP, fed by booking states on the broker: availability per profile, earliest
 * start, and the admin-only placements and layouts. Each test books its own days, so they do not interfere.
 */
@ExtendWith(KafkaBrokerExtension.class)
class FleetApiIT {

    private static final String BASE = "/api/v1/pools/" + FLEX;
    private static FleetFixture fixture;

    @BeforeAll
    static void start(KafkaBroker broker) {
        fixture = FleetFixture.shared(broker);
    }

    @Test
    void shouldOfferFewer1gSlicesWhenA3gIsBookedOnTheSameGpu() {
        Instant t = hoursAhead(48);
        String q = BASE + "/profile-availability?from=" + t + "&to=" + t.plus(Duration.ofHours(3));
        assertThat(fit(get(q, TEAM_B), "1g.18gb")).containsExactly(14, 14, 14);

        fixture.publish(booking(
                "flex-3g",
                "team-a",
                "3g.71gb",
                t.plus(Duration.ofHours(1)),
                t.plus(Duration.ofHours(2)),
                BookingState.CONFIRMED,
                1,
                List.of(PlacedUnit.mig("flex-a", 0, "3g.71gb", 4))));

        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(fit(get(q, TEAM_B), "1g.18gb")).containsExactly(14, 11, 14));
        JsonNode answer = get(q, TEAM_B);
        assertThat(fit(answer, "3g.71gb")).containsExactly(4, 3, 4);
        assertThat(fit(answer, null)).containsExactly(2, 1, 2);
        assertThat(answer.get("gpus").asInt()).isEqualTo(2);
        assertThat(answer.toString())
                .as("no booking or tenant leaks to another tenant")
                .doesNotContain("flex-3g")
                .doesNotContain("team-a");
    }

    @Test
    void shouldCountWholeGpusThatFitWhenTheGeneralAvailabilityOfAFlexiblePoolIsAsked() {
        Instant t = hoursAhead(120);
        String q = "/api/v1/pools/" + FLEX + "/availability?from=" + t + "&to=" + t.plus(Duration.ofHours(3));
        assertThat(free(get(q, TEAM_B))).containsExactly(2, 2, 2);

        // Two 3g.71gb on flex-a's GPU in the second hour, one 1g.18gb on flex-b's in the third: each hour one GPU
        // stays empty, however many units the bookings count.
        fixture.publish(booking(
                "flex-avail-3g",
                "team-a",
                "3g.71gb",
                t.plus(Duration.ofHours(1)),
                t.plus(Duration.ofHours(2)),
                BookingState.CONFIRMED,
                1,
                List.of(PlacedUnit.mig("flex-a", 0, "3g.71gb", 4), PlacedUnit.mig("flex-a", 0, "3g.71gb", 0))));
        fixture.publish(booking(
                "flex-avail-1g",
                "team-b",
                "1g.18gb",
                t.plus(Duration.ofHours(2)),
                t.plus(Duration.ofHours(3)),
                BookingState.CONFIRMED,
                1,
                List.of(PlacedUnit.mig("flex-b", 0, "1g.18gb", 6))));

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(fit(
                        get(BASE + "/profile-availability?from=" + t + "&to=" + t.plus(Duration.ofHours(3)), TEAM_B),
                        null))
                .containsExactly(2, 1, 1));
        JsonNode answer = get(q + "&quantity=1&duration=PT2H", TEAM_B);
        assertThat(free(answer))
                .as("whole GPUs that fit, as profile-availability counts them")
                .containsExactly(2, 1, 1);
        assertThat(answer.get("capacity").asInt()).isEqualTo(2);
        assertThat(answer.get("resource").asText()).isEqualTo("nvidia.com/gpu");
        assertThat(answer.get("firstFit").get("start").asText())
                .as("flex-b's GPU is empty for the first two hours")
                .isEqualTo(t.toString());
        assertThat(get(q + "&quantity=2&duration=PT1H", TEAM_B)
                        .get("firstFit")
                        .get("start")
                        .asText())
                .isEqualTo(t.toString());
        assertThat(get(
                                "/api/v1/pools/" + FLEX + "/availability?quantity=2&duration=PT3H&from=" + t + "&to="
                                        + t.plus(Duration.ofHours(1)),
                                TEAM_B)
                        .get("firstFit")
                        .get("start")
                        .asText())
                .isEqualTo(t.plus(Duration.ofHours(3)).toString());
    }

    @Test
    void shouldAnswerTheEarliestStartAfterTheBookingsHoldingEveryGpu() {
        Instant t = hoursAhead(72);
        fixture.publish(booking(
                "flex-w1",
                "team-a",
                null,
                t,
                t.plus(Duration.ofHours(3)),
                BookingState.CONFIRMED,
                1,
                List.of(PlacedUnit.wholeGpu("flex-a", 0))));
        fixture.publish(booking(
                "flex-w2",
                "team-b",
                null,
                t,
                t.plus(Duration.ofHours(5)),
                BookingState.CONFIRMED,
                1,
                List.of(PlacedUnit.wholeGpu("flex-b", 0))));
        String q = BASE + "/earliest-start?duration=PT2H&from=" + t;

        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(get(q, TEAM_A).get("start").asText())
                        .isEqualTo(t.plus(Duration.ofHours(3)).toString()));
        JsonNode two = get(q + "&quantity=2", TEAM_A);
        assertThat(two.get("start").asText())
                .isEqualTo(t.plus(Duration.ofHours(5)).toString());
        assertThat(two.get("end").asText())
                .isEqualTo(t.plus(Duration.ofHours(7)).toString());
        assertThat(two.get("resource").asText()).isEqualTo("nvidia.com/gpu");
        JsonNode slice = get(q + "&profile=3g.71gb&quantity=4", TEAM_A);
        assertThat(slice.get("start").asText())
                .isEqualTo(t.plus(Duration.ofHours(5)).toString());
        assertThat(get(q + "&horizon=PT1H", TEAM_A).hasNonNull("start"))
                .as("nothing fits within the horizon")
                .isFalse();
    }

    @Test
    void shouldShowAdminsWhereEachBookingSitsAndForbidTenants() {
        Instant t = hoursAhead(96);
        fixture.publish(booking(
                "flex-adm-3g",
                "team-a",
                "3g.71gb",
                t,
                t.plus(Duration.ofHours(2)),
                BookingState.CONFIRMED,
                1,
                List.of(PlacedUnit.mig("flex-a", 0, "3g.71gb", 4))));
        fixture.publish(booking(
                "flex-adm-1g",
                "team-b",
                "1g.18gb",
                t.plus(Duration.ofHours(1)),
                t.plus(Duration.ofHours(3)),
                BookingState.CONFIRMED,
                1,
                List.of(PlacedUnit.mig("flex-a", 0, "1g.18gb", 0))));
        String window = "?from=" + t + "&to=" + t.plus(Duration.ofHours(4));

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(
                        get(BASE + "/placements" + window, ADMIN).get("bookings"))
                .hasSize(2));
        JsonNode first =
                get(BASE + "/placements" + window, ADMIN).get("bookings").get(0);
        assertThat(first.get("bookingId").asText()).isEqualTo("flex-adm-3g");
        assertThat(first.get("tenant").asText()).isEqualTo("team-a");
        assertThat(first.get("profile").asText()).isEqualTo("3g.71gb");
        assertThat(first.get("units").get(0).toString())
                .isEqualTo("{\"node\":\"flex-a\",\"gpu\":0,\"profile\":\"3g.71gb\",\"start\":4}");

        JsonNode changes = get(BASE + "/layouts" + window, ADMIN).get("changes");
        assertThat(changes).hasSize(4);
        JsonNode both = changes.get(1);
        assertThat(both.get("at").asText())
                .isEqualTo(t.plus(Duration.ofHours(1)).toString());
        assertThat(both.get("gpus").get(0).get("instances").toString())
                .isEqualTo("[{\"profile\":\"1g.18gb\",\"start\":0,\"bookingId\":\"flex-adm-1g\"},"
                        + "{\"profile\":\"3g.71gb\",\"start\":4,\"bookingId\":\"flex-adm-3g\"}]");
        assertThat(both.get("gpus").get(1).get("mode").asText()).isEqualTo("idle");

        for (String path : List.of("/placements", "/layouts")) {
            for (String tenant : List.of(TEAM_A, TEAM_B)) {
                HttpResponse<String> refused = fixture.app.get(BASE + path + window, tenant);
                assertProblem(refused, 403, "ADMIN_ONLY");
                assertThat(refused.body()).doesNotContain("flex-adm");
            }
            assertThat(fixture.app.get(BASE + path + window, null).statusCode()).isEqualTo(401);
        }
    }

    @Test
    void shouldAnswerAProblemWhenAskedSomethingThePoolCannotAnswer() {
        assertProblem(fixture.app.get("/api/v1/pools/h200/profile-availability", TEAM_A), 422, "POOL_NOT_FLEXIBLE");
        assertProblem(
                fixture.app.get("/api/v1/pools/h200/earliest-start?duration=PT1H", TEAM_A), 422, "POOL_NOT_FLEXIBLE");
        assertProblem(fixture.app.get("/api/v1/pools/nope/layouts", ADMIN), 404, "UNKNOWN_POOL");
        assertProblem(
                fixture.app.get(BASE + "/earliest-start?duration=PT1H&profile=9g.1tb", TEAM_A), 400, "UNKNOWN_PROFILE");
        assertProblem(fixture.app.get(BASE + "/earliest-start", TEAM_A), 400, "REQUIRED");
        assertProblem(
                fixture.app.get(
                        BASE + "/profile-availability?from=2030-01-01T00:00:00Z&to=2029-01-01T00:00:00Z", TEAM_A),
                400,
                "OUTSIDE_HORIZON");
        Instant t = hoursAhead(1);
        assertProblem(
                fixture.app.get(
                        BASE + "/profile-availability?from=" + t + "&to=" + t.plus(Duration.ofDays(15)), TEAM_A),
                400,
                "RANGE_TOO_WIDE");
        assertProblem(
                fixture.app.get(
                        BASE + "/profile-availability?step=PT1M&from=" + t + "&to=" + t.plus(Duration.ofDays(2)),
                        TEAM_A),
                400,
                "TOO_MANY_STEPS");
        assertThat(fixture.app.get("/api/v1/pools/h200/availability", TEAM_A).statusCode())
                .isEqualTo(200);
        assertThat(fixture.app.get("/openapi", null).body())
                .contains(
                        "/api/v1/pools/{id}/profile-availability",
                        "/api/v1/pools/{id}/earliest-start",
                        "/api/v1/pools/{id}/placements",
                        "/api/v1/pools/{id}/layouts");
    }

    private static JsonNode get(String path, String token) {
        HttpResponse<String> response = fixture.app.get(path, token);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        try {
            return Json.mapper().readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The fit per slot of the row of {@code profile} (null: whole GPUs). */
    private static List<Integer> fit(JsonNode answer, String profile) {
        for (JsonNode row : answer.get("rows")) {
            if (profile == null
                    ? !row.hasNonNull("profile")
                    : profile.equals(row.path("profile").asText())) {
                List<Integer> fits = new ArrayList<>();
                row.get("slots").forEach(s -> fits.add(s.get("fit").asInt()));
                return fits;
            }
        }
        throw new AssertionError("no row " + profile + " in " + answer);
    }

    /** The free units per slot of a general availability answer. */
    private static List<Integer> free(JsonNode answer) {
        List<Integer> free = new ArrayList<>();
        answer.get("slots").forEach(s -> free.add(s.get("free").asInt()));
        return free;
    }

    private static void assertProblem(HttpResponse<String> response, int status, String rule) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
        assertThat(BookingApp.read(response.body())).containsEntry("rule", rule);
    }
}
