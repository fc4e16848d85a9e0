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
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Recurring series end to end on the real broker: HTTP → one command → one decision of the pool's writer → the answer
 * with every occurrence, the bookings in the read view, cancel the rest. Windows lie weeks ahead, each test on its own
 * hours, so the shared service's other tests never share their capacity.
 */
@ExtendWith(KafkaBrokerExtension.class)
class SeriesApiIT {

    private static final String POOL = "h200-mig-3g.71gb";
    private static final Duration WEEK = Duration.ofDays(7);

    private static BookingApp app;

    @BeforeAll
    static void start(KafkaBroker broker) {
        app = BookingApp.shared(broker);
    }

    private static String seriesBody(Instant start, int quantity, String rule, String mode) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("pool", POOL);
        body.put("quantity", quantity);
        body.put("start", start.toString());
        body.put("duration", "PT1H");
        body.put("namespace", "team-a");
        body.put("purpose", "weekly training");
        body.put("recurrence", Map.of("rule", rule, "timeZone", "Europe/Berlin"));
        if (mode != null) {
            body.put("mode", mode);
        }
        return json(body);
    }

    private static HttpResponse<String> postSeries(String token, String body) {
        return app.send("POST", "/api/v1/series", token, body, Map.of());
    }

    /** Another tenant takes the whole pool in the series' second week. */
    private static Instant fillSecondWeek(Instant first) {
        Instant second = first.plus(WEEK);
        HttpResponse<String> taken = app.send(
                "POST",
                "/api/v1/bookings",
                TEAM_B,
                createBody(POOL, 6, second, second.plusSeconds(3600), "team-b"),
                Map.of());
        assertThat(taken.statusCode()).as(taken.body()).isEqualTo(201);
        return second;
    }

    @Test
    @SuppressWarnings("unchecked")
    void shouldBookTheOtherWeeksAndNameTheRefusedOneWhenAnotherBookingFillsItsWeek() {
        Instant first = hourFromNow(1003);
        Instant second = fillSecondWeek(first);

        HttpResponse<String> created = postSeries(TEAM_A, seriesBody(first, 2, "FREQ=WEEKLY;COUNT=3", null));

        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        Map<String, Object> series = read(created.body());
        String id = (String) series.get("id");
        assertThat(created.headers().firstValue("Location")).hasValue("/api/v1/series/" + id);
        assertThat(series).containsEntry("mode", "each").containsEntry("timeZone", "Europe/Berlin");
        List<Map<String, Object>> confirmed = (List<Map<String, Object>>) series.get("confirmed");
        assertThat(confirmed)
                .extracting(b -> b.get("start"))
                .containsExactly(
                        first.toString(), first.plus(WEEK.multipliedBy(2)).toString());
        assertThat(confirmed).allSatisfy(b -> assertThat(b)
                .containsEntry("seriesId", id)
                .containsEntry("state", "CONFIRMED")
                .containsEntry("quantity", 2));
        Map<String, Object> refused = ((List<Map<String, Object>>) series.get("refused")).getFirst();
        assertThat((List<?>) series.get("refused")).hasSize(1);
        assertThat(refused)
                .containsEntry("start", second.toString())
                .containsEntry("reason", "CAPACITY")
                .containsEntry("earliestStart", second.plusSeconds(3600).toString());

        HttpResponse<String> occurrence =
                app.get("/api/v1/bookings/" + confirmed.getFirst().get("id"), TEAM_A);
        assertThat(read(occurrence.body())).containsEntry("seriesId", id);
        HttpResponse<String> read = app.get("/api/v1/series/" + id, TEAM_A);
        assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
        assertThat((List<?>) read(read.body()).get("occurrences")).hasSize(2);
        assertThat(app.get("/api/v1/series/" + id, TEAM_B).statusCode()).isEqualTo(404);
        assertThat(app.get("/api/v1/series/" + id, ADMIN).statusCode()).isEqualTo(200);
    }

    @Test
    @SuppressWarnings("unchecked")
    void shouldBookNothingAndAnswer409WhenAllOrNoneMeetsARefusedWeek() {
        Instant first = hourFromNow(1010);
        Instant second = fillSecondWeek(first);

        HttpResponse<String> refused = postSeries(TEAM_A, seriesBody(first, 2, "FREQ=WEEKLY;COUNT=3", "all-or-none"));

        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(409);
        assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        Map<String, Object> problem = read(refused.body());
        assertThat(problem).containsEntry("rule", "SERIES_ALL_OR_NONE");
        assertThat((List<Map<String, Object>>) problem.get("refused"))
                .extracting(r -> r.get("start") + " " + r.get("reason"))
                .containsExactly(
                        first + " SERIES_ALL_OR_NONE",
                        second + " CAPACITY",
                        first.plus(WEEK.multipliedBy(2)) + " SERIES_ALL_OR_NONE");
        assertThat(app.get("/api/v1/series/" + problem.get("seriesId"), TEAM_A).statusCode())
                .isEqualTo(404);
        // Nothing was held: the first week is still wholly free.
        HttpResponse<String> free = app.send(
                "POST",
                "/api/v1/bookings",
                TEAM_B,
                createBody(POOL, 6, first, first.plusSeconds(3600), "team-b"),
                Map.of());
        assertThat(free.statusCode()).as(free.body()).isEqualTo(201);
    }

    @Test
    @SuppressWarnings("unchecked")
    void shouldCancelOnlyTheOccurrencesFromTheGivenTimeWhenTheRestIsCancelled() {
        Instant first = hourFromNow(1020);
        HttpResponse<String> created = postSeries(TEAM_A, seriesBody(first, 1, "FREQ=DAILY;COUNT=4", null));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        String id = (String) read(created.body()).get("id");
        Instant third = first.plus(Duration.ofDays(2));

        assertThat(app.send("DELETE", "/api/v1/series/" + id + "?from=" + third, TEAM_B, null, Map.of())
                        .statusCode())
                .isEqualTo(404);
        HttpResponse<String> cancelled =
                app.send("DELETE", "/api/v1/series/" + id + "?from=" + third, TEAM_A, null, Map.of());

        assertThat(cancelled.statusCode()).as(cancelled.body()).isEqualTo(200);
        assertThat((List<?>) read(cancelled.body()).get("cancelled")).hasSize(2);
        List<Map<String, Object>> occurrences = (List<Map<String, Object>>)
                read(app.get("/api/v1/series/" + id, TEAM_A).body()).get("occurrences");
        assertThat(occurrences)
                .extracting(b -> b.get("state"))
                .containsExactly("CONFIRMED", "CONFIRMED", "CANCELLED", "CANCELLED");
        HttpResponse<String> again = app.send("DELETE", "/api/v1/series/" + id, TEAM_A, null, Map.of());
        assertThat(again.statusCode()).as(again.body()).isEqualTo(200);
        assertThat((List<?>) read(again.body()).get("cancelled")).hasSize(2);
    }

    @Test
    void shouldAnswerAProblemNamingTheRuleWhenTheRecurrenceIsBad() {
        Instant first = hourFromNow(1030);

        assertProblem(postSeries(TEAM_A, seriesBody(first, 1, "FREQ=WEEKLY", null)), 422, "INVALID_RECURRENCE");
        assertProblem(
                postSeries(TEAM_A, seriesBody(first, 1, "FREQ=WEEKLY;BYDAY=XX;COUNT=2", null)),
                422,
                "INVALID_RECURRENCE");
        assertProblem(
                postSeries(TEAM_A, seriesBody(first, 1, "FREQ=DAILY;COUNT=100", null)), 422, "POLICY_MAX_ADVANCE");
        assertProblem(postSeries(TEAM_A, seriesBody(first, 1, "FREQ=DAILY;COUNT=2", "some")), 400, "INVALID_FIELD");
        assertProblem(
                postSeries(TEAM_A, createBody(POOL, 1, first, first.plusSeconds(3600), "team-a")), 400, "REQUIRED");
        assertProblem(app.get("/api/v1/series/no-such-series", TEAM_A), 404, "NOT_FOUND");
    }

    private static void assertProblem(HttpResponse<String> response, int status, String rule) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(read(response.body())).containsEntry("rule", rule);
    }
}
