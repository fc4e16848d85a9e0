package io.gpuaas.booking.it;

import static io.gpuaas.booking.it.BookingApp.TEAM_A;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The usage forward over HTTP: the ledger's answers and refusals as the caller sees them (no browser). */
@ExtendWith(KafkaBrokerExtension.class)
class UsageForwardIT {

    private static DashboardFixture fixture;
    private static BookingApp withoutLedger;

    @BeforeAll
    static void start(KafkaBroker broker) {
        fixture = DashboardFixture.shared(broker);
        withoutLedger = BookingApp.shared(broker); // the API ITs' instance: no gpuaas.booking.ledger-url
    }

    @Test
    void shouldAnswer503ProblemJsonWhenNoLedgerIsConfigured() {
        assertProblem(
                withoutLedger.get("/api/v1/usage?from=2026-11-01&to=2026-11-02", TEAM_A), 503, "LEDGER_UNAVAILABLE");
        assertProblem(withoutLedger.get("/api/v1/usage/bookings/b-1/utilization", TEAM_A), 503, "LEDGER_UNAVAILABLE");
    }

    @Test
    void shouldPassTheCsvAndTheCallersTokenWhenATenantAsksForCsv() {
        HttpResponse<String> csv = fixture.app.send(
                "GET",
                "/api/v1/usage?from=2026-11-01&to=2026-11-15&groupBy=day&ignored=x",
                TEAM_A,
                null,
                Map.of("Accept", "text/csv"));
        assertThat(csv.statusCode()).isEqualTo(200);
        assertThat(csv.headers().firstValue("Content-Type"))
                .hasValueSatisfying(t -> assertThat(t).startsWith("text/csv"));
        assertThat(csv.body()).isEqualTo(FakeLedger.dayCsv());
        assertThat(FakeLedger.CALLS)
                .contains(new FakeLedger.Call(
                        "/api/v1/usage?from=2026-11-01&to=2026-11-15&groupBy=day", "Bearer " + TEAM_A, "text/csv"));
    }

    @Test
    void shouldAnswerProblemJsonWithoutTheLedgersInternalsWhenTheLedgerRefusesOrFails() {
        assertProblem(get("/api/v1/usage?from=2026-11-01&to=2026-11-02&tenant=team-b"), 403, "TENANT_NOT_OWNED");
        assertProblem(get("/api/v1/usage/bookings/missing/utilization?minutes=60"), 404, "BOOKING_NOT_FOUND");
        HttpResponse<String> catchingUp = get("/api/v1/usage?from=1999-01-01&to=1999-01-02");
        assertProblem(catchingUp, 503, "LEDGER_CATCHING_UP");
        assertThat(catchingUp.headers().firstValue("Retry-After")).isPresent();
        HttpResponse<String> failed = get("/api/v1/usage?from=1999-02-02&to=1999-02-03");
        assertProblem(failed, 502, "LEDGER_UNAVAILABLE");
        assertThat(failed.body()).doesNotContain("Exception", "LedgerInputs", "127.0.0.1");
        assertThat(fixture.app
                        .get("/api/v1/usage?from=2026-11-01&to=2026-11-02", null)
                        .statusCode())
                .as("no token, no forward")
                .isEqualTo(401);
    }

    private static HttpResponse<String> get(String path) {
        return fixture.app.get(path, TEAM_A);
    }

    private static void assertProblem(HttpResponse<String> response, int status, String rule) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(BookingApp.read(response.body()))
                .containsEntry("rule", rule)
                .containsEntry("status", status)
                .doesNotContainEntry("instance", "/internal");
        assertThat(response.body()).doesNotContain("fake ledger\",\"instance\":\"/internal");
    }
}
