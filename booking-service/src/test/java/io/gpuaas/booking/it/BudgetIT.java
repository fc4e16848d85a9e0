package io.gpuaas.booking.it;

import static io.gpuaas.booking.it.BookingApp.ADMIN;
import static io.gpuaas.booking.it.BookingApp.TEAM_A;
import static io.gpuaas.booking.it.BookingApp.TEAM_B;
import static io.gpuaas.booking.it.BookingApp.createBody;
import static io.gpuaas.booking.it.BookingApp.json;
import static io.gpuaas.booking.it.BookingApp.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gpuaas.events.Topics;
import io.gpuaas.events.budget.TenantBudget;
import io.gpuaas.events.notice.Notice;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Monthly budgets on the real broker, through the HTTP edge, the budget stage and the pool's decider: a booking that
 * would take team-a's confirmed GPU-hours of next month over its budget is refused 409 BUDGET_EXCEEDED with the
 * budget, what is booked and what it needs; a cancel gives the hours back; the 50/80/100 % notices are each on
 * {@code gpuaas.notices} once. The API: admins set budgets (a tenant 403), a tenant reads only its own (another's 404),
 * bad input is a 4xx problem.
 */
@ExtendWith(KafkaBrokerExtension.class)
class BudgetIT {

    private static final String POOL = "budget-h200";
    /** A pool of its own for the waitlist and retry cases, so the other cases' bookings never fill it. */
    private static final String EDGE = "budget-edge";

    private static BookingApp app;
    private static CommittedRecords<Notice> notices;
    private static CommittedRecords<TenantBudget> budgets;
    /** Next UTC month, so every window below lies inside it whatever today is. */
    private static final YearMonth MONTH = YearMonth.now(ZoneOffset.UTC).plusMonths(1);

    @BeforeAll
    static void start(KafkaBroker broker) throws IOException {
        Path file = Files.writeString(
                Files.createTempFile("pools", ".json"),
                "[{\"id\": \"" + POOL + "\", \"flavor\": \"" + POOL + "\", \"resource\": \"nvidia.com/gpu\","
                        + " \"capacity\": 8, \"gpuModel\": \"NVIDIA H200\"},"
                        + " {\"id\": \"" + EDGE + "\", \"flavor\": \"" + EDGE + "\", \"resource\": \"nvidia.com/gpu\","
                        + " \"capacity\": 8, \"gpuModel\": \"NVIDIA H200\"}]");
        app = BookingApp.start(
                broker,
                Map.of(
                        "gpuaas.pools-file", file.toString(),
                        "gpuaas.booking.max-advance", "P70D",
                        "gpuaas.booking.decision-timeout", "PT15S"));
        notices = new CommittedRecords<>(broker, Topics.NOTICES, app.prefix);
        budgets = new CommittedRecords<>(broker, Topics.BUDGETS, app.prefix);
    }

    @AfterAll
    static void stop() {
        notices.close();
        budgets.close();
        app.close();
    }

    @Test
    void shouldRefuseWhatWouldGoOverTheBudgetWithItsFiguresAndGiveBackWhatIsCancelled() {
        String month = MONTH.toString();
        HttpResponse<String> set = app.send(
                "PUT", "/api/v1/budgets/team-a/" + month, ADMIN, "{\"unit\": \"GPU_HOURS\", \"limit\": 10}", Map.of());
        assertThat(set.statusCode()).as(set.body()).isEqualTo(202);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(
                        app.get("/api/v1/budgets/team-a/" + month, TEAM_A).statusCode())
                .isEqualTo(200));

        Instant day = LocalDate.of(MONTH.getYear(), MONTH.getMonth(), 2)
                .atStartOfDay()
                .toInstant(ZoneOffset.UTC)
                .plus(Duration.ofHours(10));
        HttpResponse<String> first =
                app.post(TEAM_A, createBody(POOL, 2, day, day.plus(Duration.ofHours(3)), "team-a"));
        assertThat(first.statusCode()).as(first.body()).isEqualTo(201);
        String firstId = (String) read(first.body()).get("id");

        HttpResponse<String> over = app.post(
                TEAM_A, createBody(POOL, 2, day.plus(Duration.ofHours(4)), day.plus(Duration.ofHours(7)), "team-a"));

        assertThat(over.statusCode()).as(over.body()).isEqualTo(409);
        assertThat(over.headers().firstValue("Content-Type").orElseThrow()).contains("problem+json");
        Map<String, Object> problem = read(over.body());
        assertThat(problem).containsEntry("rule", "BUDGET_EXCEEDED");
        @SuppressWarnings("unchecked")
        Map<String, Object> figures = (Map<String, Object>) problem.get("budget");
        assertThat(figures).containsEntry("month", month).containsEntry("unit", "GPU_HOURS");
        assertThat(((Number) figures.get("limit")).doubleValue()).isEqualTo(10.0);
        // The first booking is answered once its pool decided; the stage may not have read that back yet, so its
        // 6 GPU-hours are booked or still held, never neither.
        assertThat(((Number) figures.get("booked")).doubleValue() + ((Number) figures.get("held")).doubleValue())
                .isEqualTo(6.0);
        assertThat(((Number) figures.get("needed")).doubleValue()).isEqualTo(6.0);
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            Map<String, Object> state =
                    read(app.get("/api/v1/budgets/team-a/" + month, TEAM_A).body());
            assertThat(((Number) state.get("booked")).doubleValue()).isEqualTo(6.0);
            assertThat(state).containsEntry("overBudget", true);
        });

        HttpResponse<String> cancelled = app.send("DELETE", "/api/v1/bookings/" + firstId, TEAM_A, null, Map.of());
        assertThat(cancelled.statusCode()).as(cancelled.body()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            Map<String, Object> state =
                    read(app.get("/api/v1/budgets/team-a/" + month, TEAM_A).body());
            assertThat(((Number) state.get("booked")).doubleValue())
                    .as("given back")
                    .isEqualTo(0.0);
            assertThat(state).containsEntry("overBudget", false);
        });

        HttpResponse<String> fits = app.post(
                TEAM_A, createBody(POOL, 2, day.plus(Duration.ofHours(4)), day.plus(Duration.ofHours(9)), "team-a"));
        assertThat(fits.statusCode()).as("10 of 10 GPU-hours: " + fits.body()).isEqualTo(201);
        HttpResponse<String> oneMore = app.post(
                TEAM_A, createBody(POOL, 1, day.plus(Duration.ofHours(10)), day.plus(Duration.ofHours(11)), "team-a"));
        assertThat(oneMore.statusCode()).as(oneMore.body()).isEqualTo(409);

        String key = TenantBudget.key("team-a", month);
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(notices.values(key).stream()
                        .map(n -> ((Notice.BudgetThresholdReached) n).percent())
                        .toList())
                .containsExactlyInAnyOrder(50, 80, 100));
        assertThat(budgets.values(key)).last().satisfies(b -> {
            assertThat(b.booked()).isEqualByComparingTo("10");
            assertThat(b.overBudget()).isTrue();
        });
        // Another tenant's budgets do not move, and it is not refused by team-a's.
        HttpResponse<String> teamB =
                app.post(TEAM_B, createBody(POOL, 1, day, day.plus(Duration.ofHours(20)), "team-b"));
        assertThat(teamB.statusCode()).as(teamB.body()).isEqualTo(201);
    }

    @Test
    void shouldCheckAWaitingRequestAgainstTheBudgetOfTheMonthItMayStartIn() {
        YearMonth next = MONTH.plusMonths(1);
        String carol = tenantToken("carol", "team-c");
        String dave = tenantToken("dave", "team-d");
        setAndAwait("team-d", next.toString(), "{\"unit\": \"GPU_HOURS\", \"limit\": 4}");
        Instant lastEvening = MONTH.atEndOfMonth().atTime(20, 0).toInstant(ZoneOffset.UTC);
        Instant midnight = next.atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC);
        HttpResponse<String> full = app.post(carol, createBody(EDGE, 8, lastEvening, midnight, "team-c"));
        assertThat(full.statusCode()).as(full.body()).isEqualTo(201);
        Map<String, Object> body = new LinkedHashMap<>(
                read(createBody(EDGE, 2, lastEvening, lastEvening.plus(Duration.ofHours(4)), "team-d")));
        body.put(
                "waitlist",
                Map.of("latestStart", midnight.plus(Duration.ofHours(2)).toString()));

        HttpResponse<String> waiting = app.post(dave, json(body));

        // Its window is all this month (no budget), but the pool is full until midnight: it would be booked from
        // 00:00 in the next month, 8 GPU-hours against a budget of 4.
        assertThat(waiting.statusCode()).as(waiting.body()).isEqualTo(409);
        Map<String, Object> problem = read(waiting.body());
        assertThat(problem).containsEntry("rule", "BUDGET_EXCEEDED");
        @SuppressWarnings("unchecked")
        Map<String, Object> figures = (Map<String, Object>) problem.get("budget");
        assertThat(figures).containsEntry("month", next.toString());
        assertThat(((Number) figures.get("needed")).doubleValue())
                .as("the most any start up to 02:00 takes of it: 2 GPUs for 4 h and a quarter")
                .isEqualTo(8.5);
        Map<String, Object> state =
                read(app.get("/api/v1/budgets/team-d/" + next, dave).body());
        assertThat(((Number) state.get("booked")).doubleValue()).isEqualTo(0.0);
    }

    @Test
    void shouldAnswerARetryOfAConfirmedCreateWithItsBookingWhenTheTenantIsAtItsLimit() {
        String erin = tenantToken("erin", "team-e");
        String month = MONTH.toString();
        setAndAwait("team-e", month, "{\"unit\": \"GPU_HOURS\", \"limit\": 6}");
        Instant day = MONTH.atDay(3).atTime(10, 0).toInstant(ZoneOffset.UTC);
        String body = createBody(EDGE, 2, day, day.plus(Duration.ofHours(3)), "team-e");
        Map<String, String> key = Map.of("Idempotency-Key", "budget-retry-" + System.nanoTime());
        HttpResponse<String> first = app.send("POST", "/api/v1/bookings", erin, body, key);
        assertThat(first.statusCode()).as(first.body()).isEqualTo(201);
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            Map<String, Object> state =
                    read(app.get("/api/v1/budgets/team-e/" + month, erin).body());
            assertThat(((Number) state.get("booked")).doubleValue())
                    .as("at its limit")
                    .isEqualTo(6.0);
        });

        HttpResponse<String> retry = app.send("POST", "/api/v1/bookings", erin, body, key);

        assertThat(retry.statusCode()).as(retry.body()).isEqualTo(first.statusCode());
        assertThat(read(retry.body()).get("id")).isEqualTo(read(first.body()).get("id"));
        HttpResponse<String> another = app.send(
                "POST", "/api/v1/bookings", erin, body, Map.of("Idempotency-Key", "budget-new-" + System.nanoTime()));
        assertThat(another.statusCode())
                .as("a new key is a new request: " + another.body())
                .isEqualTo(409);
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            Map<String, Object> state =
                    read(app.get("/api/v1/budgets/team-e/" + month, erin).body());
            assertThat(((Number) state.get("booked")).doubleValue()).isEqualTo(6.0);
            assertThat(((Number) state.get("held")).doubleValue())
                    .as("the retry held nothing")
                    .isEqualTo(0.0);
        });
    }

    private static String tenantToken(String subject, String tenant) {
        return BookingApp.JWT.token(subject, tenant, List.of(tenant), List.of(), Duration.ofHours(1));
    }

    private static void setAndAwait(String tenant, String month, String body) {
        HttpResponse<String> set = app.send("PUT", "/api/v1/budgets/" + tenant + "/" + month, ADMIN, body, Map.of());
        assertThat(set.statusCode()).as(set.body()).isEqualTo(202);
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(app.get("/api/v1/budgets/" + tenant + "/" + month, ADMIN)
                                .statusCode())
                        .isEqualTo(200));
    }

    @Test
    void shouldLetOnlyAdminsSetBudgetsAndTenantsReadOnlyTheirOwn() {
        String month = MONTH.plusMonths(1).toString();
        HttpResponse<String> byTenant = app.send(
                "PUT", "/api/v1/budgets/team-b/" + month, TEAM_B, "{\"unit\": \"GPU_HOURS\", \"limit\": 5}", Map.of());
        assertThat(byTenant.statusCode()).isEqualTo(403);
        assertThat(read(byTenant.body())).containsEntry("rule", "ADMIN_ONLY");
        assertThat(app.send(
                                "PUT",
                                "/api/v1/budgets/team-b/" + month,
                                ADMIN,
                                "{\"unit\": \"GPU_HOURS\", \"limit\": 5.5}",
                                Map.of())
                        .statusCode())
                .isEqualTo(202);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(
                        app.get("/api/v1/budgets/team-b/" + month, TEAM_B).statusCode())
                .isEqualTo(200));

        HttpResponse<String> others = app.get("/api/v1/budgets/team-b/" + month, TEAM_A);
        HttpResponse<String> unknown = app.get("/api/v1/budgets/team-c/" + month, TEAM_A);
        assertThat(others.statusCode()).isEqualTo(404);
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(read(others.body()).get("rule"))
                .isEqualTo(read(unknown.body()).get("rule"));
        assertThat(app.get("/api/v1/budgets?month=" + month, TEAM_A).body()).doesNotContain("team-b");
        assertThat(app.get("/api/v1/budgets?month=" + month, ADMIN).body()).contains("team-b");
        Map<String, Object> own =
                read(app.get("/api/v1/budgets/team-b/" + month, TEAM_B).body());
        assertThat(((Number) own.get("limit")).doubleValue()).isEqualTo(5.5);
        assertThat(own).containsEntry("unit", "GPU_HOURS");
    }

    @Test
    void shouldAnswerBadBudgetsWithAProblem() {
        for (List<String> bad : List.of(
                List.of("/api/v1/budgets/team-a/2026-13", "{\"unit\": \"GPU_HOURS\", \"limit\": 5}", "INVALID_MONTH"),
                List.of("/api/v1/budgets/Team_A/2026-11", "{\"unit\": \"GPU_HOURS\", \"limit\": 5}", "INVALID_NAME"),
                List.of("/api/v1/budgets/team-a/2026-11", "{\"unit\": \"EUROS\", \"limit\": 5}", "INVALID_FIELD"),
                List.of("/api/v1/budgets/team-a/2026-11", "{\"unit\": \"GPU_HOURS\", \"limit\": -1}", "INVALID_LIMIT"),
                List.of(
                        "/api/v1/budgets/team-a/2026-11",
                        "{\"unit\": \"GPU_HOURS\", \"limit\": \"5\"}",
                        "INVALID_LIMIT"),
                List.of(
                        "/api/v1/budgets/team-a/2026-11",
                        "{\"unit\": \"GPU_HOURS\", \"limit\": 0.0000001}",
                        "INVALID_LIMIT"),
                List.of("/api/v1/budgets/team-a/2026-11", "{\"unit\": \"GPU_HOURS\"}", "REQUIRED"),
                List.of(
                        "/api/v1/budgets/team-a/2026-11",
                        "{\"unit\": \"GPU_HOURS\", \"limit\": 5",
                        "MALFORMED_JSON"))) {
            HttpResponse<String> answer = app.send("PUT", bad.get(0), ADMIN, bad.get(1), Map.of());
            assertThat(answer.statusCode()).as(bad.toString()).isEqualTo(400);
            assertThat(answer.headers().firstValue("Content-Type").orElseThrow())
                    .contains("problem+json");
            assertThat(read(answer.body())).as(bad.toString()).containsEntry("rule", bad.get(2));
        }
        HttpResponse<String> cost = app.send(
                "PUT", "/api/v1/budgets/team-a/2026-11", ADMIN, "{\"unit\": \"COST\", \"limit\": 5}", Map.of());
        assertThat(cost.statusCode())
                .as("no prices in this catalog: " + cost.body())
                .isEqualTo(422);
        assertThat(app.get("/api/v1/budgets/team-a/2026-1", TEAM_A).statusCode())
                .isEqualTo(400);
        String closed = YearMonth.now(ZoneOffset.UTC).minusMonths(2).toString();
        HttpResponse<String> past = app.send(
                "PUT", "/api/v1/budgets/team-a/" + closed, ADMIN, "{\"unit\": \"GPU_HOURS\", \"limit\": 5}", Map.of());
        assertThat(past.statusCode()).as(past.body()).isEqualTo(422);
        assertThat(read(past.body())).containsEntry("rule", "MONTH_CLOSED");
    }
}
