package io.gpuaas.booking.it;

import static io.gpuaas.booking.it.BookingApp.ADMIN;
import static io.gpuaas.booking.it.BookingApp.TEAM_A;
import static io.gpuaas.booking.it.BookingApp.TEAM_B;
import static io.gpuaas.booking.it.BookingApp.createBody;
import static io.gpuaas.booking.it.BookingApp.hourFromNow;
import static io.gpuaas.booking.it.BookingApp.read;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The booking API end to end: HTTP → command topic → decider → events → HTTP answer and read view. */
@ExtendWith(KafkaBrokerExtension.class)
class BookingApiIT {

    private static BookingApp app;

    @BeforeAll
    static void start(KafkaBroker broker) {
        app = BookingApp.shared(broker);
    }

    @Test
    void shouldConfirmListAndCancelWhenATenantBooksFreeCapacity() {
        Instant start = hourFromNow(2);
        HttpResponse<String> created =
                app.post(TEAM_A, createBody("h200", 2, start, start.plusSeconds(7200), "team-a"));

        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        Map<String, Object> booking = read(created.body());
        assertThat(booking).containsEntry("state", "CONFIRMED").containsEntry("start", start.toString());
        String location = created.headers().firstValue("Location").orElseThrow();
        assertThat(app.get(location, TEAM_A).statusCode()).isEqualTo(200);
        assertThat(app.get(location, TEAM_B).statusCode()).isEqualTo(404);
        assertThat(app.get(location, ADMIN).statusCode()).isEqualTo(200);
        assertThat(app.get("/api/v1/bookings?pool=h200", TEAM_A).body()).contains((String) booking.get("id"));
        assertThat(app.get("/api/v1/bookings", TEAM_B).body()).doesNotContain((String) booking.get("id"));

        HttpResponse<String> cancelled = app.send("DELETE", location, TEAM_A, null, Map.of());
        assertThat(cancelled.statusCode()).as(cancelled.body()).isEqualTo(200);
        assertThat(read(cancelled.body())).containsEntry("state", "CANCELLED");
    }

    @Test
    void shouldAnswer409WithConflictsAndEarliestStartWhenThePoolIsFull() {
        Instant start = hourFromNow(30);
        assertThat(app.post(TEAM_A, createBody("h200-mig-3g.71gb", 6, start, start.plusSeconds(3600), "team-a"))
                        .statusCode())
                .isEqualTo(201);

        HttpResponse<String> refused =
                app.post(TEAM_B, createBody("h200-mig-3g.71gb", 1, start, start.plusSeconds(3600), "team-b"));

        assertThat(refused.statusCode()).isEqualTo(409);
        assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        Map<String, Object> problem = read(refused.body());
        assertThat(problem)
                .containsEntry("rule", "CAPACITY")
                .containsEntry("earliestStart", start.plusSeconds(3600).toString());
        assertThat((List<?>) problem.get("conflicts")).hasSize(1);
    }

    @Test
    void shouldReplayTheAnswerWhenTheIdempotencyKeyRepeatsAndRefuseAnotherBody() {
        Instant start = hourFromNow(50);
        String body = createBody("h200-mig-1g.18gb", 1, start, start.plusSeconds(3600), "team-a-dev");
        Map<String, String> key = Map.of("Idempotency-Key", "order-42");
        HttpResponse<String> first = app.send("POST", "/api/v1/bookings", TEAM_A, body, key);
        HttpResponse<String> again = app.send("POST", "/api/v1/bookings", TEAM_A, body, key);
        HttpResponse<String> other = app.send(
                "POST",
                "/api/v1/bookings",
                TEAM_A,
                createBody("h200-mig-1g.18gb", 2, start, start.plusSeconds(3600), "team-a-dev"),
                key);

        assertThat(first.statusCode()).isEqualTo(201);
        assertThat(again.statusCode()).isEqualTo(201);
        assertThat(read(again.body()).get("id")).isEqualTo(read(first.body()).get("id"));
        assertThat(other.statusCode()).isEqualTo(422);
        assertThat(read(other.body())).containsEntry("rule", "IDEMPOTENCY_MISMATCH");
    }

    @Test
    void shouldReportFreeUnitsAndTheFirstFitWhenAskedForAvailability() {
        Instant start = hourFromNow(70);
        assertThat(app.post(TEAM_A, createBody("h200-mig-2g.35gb", 9, start, start.plusSeconds(3600), "team-a"))
                        .statusCode())
                .isEqualTo(201);

        HttpResponse<String> report = app.get(
                "/api/v1/pools/h200-mig-2g.35gb/availability?from=" + start.minusSeconds(3600) + "&to="
                        + start.plusSeconds(7200) + "&step=PT1H&quantity=1&duration=PT1H",
                TEAM_B);

        assertThat(report.statusCode()).as(report.body()).isEqualTo(200);
        Map<String, Object> body = read(report.body());
        assertThat((List<Map<String, Object>>) body.get("slots"))
                .extracting(s -> s.get("free"))
                .containsExactly(9, 0, 9);
        assertThat((Map<String, Object>) body.get("firstFit"))
                .containsEntry("start", start.minusSeconds(3600).toString());
    }

    @Test
    void shouldServePoolsOpenApiAndMetricsWhenAsked() {
        assertThat(app.get("/api/v1/pools", TEAM_A).body()).contains("h200-mig-1g.18gb", "nvidia.com/mig-1g.18gb");
        assertThat(app.get("/openapi", null).body())
                .contains(
                        "/api/v1/bookings",
                        "/api/v1/bookings/{id}/end",
                        "/api/v1/pools/{id}/availability",
                        "/api/v1/bookings/{id}/workloads/{kind}/{name}/keep",
                        "/api/v1/workloads/{namespace}/{kind}/{name}/keep");
        assertThat(app.get("/metrics", ADMIN).body()).contains("gpuaas_booking_http_decision_wait_seconds");
        assertThat(app.get("/health/liveness", null).statusCode()).isEqualTo(200);
    }
}
