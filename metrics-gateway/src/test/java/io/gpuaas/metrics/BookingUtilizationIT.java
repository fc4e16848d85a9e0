package io.gpuaas.metrics;

import static io.gpuaas.metrics.ledger.LedgerRecords.booking;
import static io.gpuaas.metrics.ledger.LedgerRecords.confirmed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpuaas.events.Json;
import io.gpuaas.events.Topics;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.events.gpu.GpuScrapeEvent;
import io.gpuaas.metrics.ledger.LedgerRecords;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code GET /api/v1/usage/bookings/{id}/utilization} on a real broker: two tenants' bookings and samples; each
 * tenant sees its own booking's busy and idle GPUs per minute, and another tenant's booking does not exist for it.
 */
@ExtendWith(KafkaBrokerExtension.class)
class BookingUtilizationIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String TEAM_U = GatewayHarness.token("team-u", List.of("team-u"), List.of());
    private static final String TEAM_V = GatewayHarness.token("team-v", List.of("team-v"), List.of());
    private static final String ADMIN = GatewayHarness.token("ops", List.of(), List.of("admin"));
    private static final Instant T10 = Instant.parse("2026-11-25T10:00:00Z");

    private static GatewayHarness gateway;

    @BeforeAll
    static void start(KafkaBroker broker) throws Exception {
        gateway = new GatewayHarness(broker, "/dcgm/dcgm-exporter-t4.prom", p -> LedgerSealIT.settings());
        gateway.awaitReady();
        Booking u = booking("bk-u", "team-u", "h200", 2, T10, T10.plus(Duration.ofHours(2)));
        Booking v = booking("bk-v", "team-v", "h200", 1, T10, T10.plus(Duration.ofHours(2)));
        gateway.send(Topics.BOOKING_EVENTS, u.id(), confirmed(u));
        gateway.send(Topics.BOOKING_EVENTS, v.id(), confirmed(v));
        // Every 15 s from 10:00:00 to 10:03:00: team-u's GPU-u1 busy until 10:01:30 then idle, GPU-u2 idle
        // throughout; team-v's GPU-v1 busy. The 10:03:00 readings are charged only by readings that never come.
        for (Instant t = T10; !t.isAfter(T10.plusSeconds(180)); t = t.plusSeconds(15)) {
            double u1 = t.isBefore(T10.plusSeconds(90)) ? 0.9 : 0.0;
            gateway.send(Topics.GPU_SAMPLES, "nu", (GpuScrapeEvent) scrape("nu", "team-u", t, u1, 0.0));
            gateway.send(Topics.GPU_SAMPLES, "nv", (GpuScrapeEvent) scrape("nv", "team-v", t, 0.9));
        }
    }

    @AfterAll
    static void stop() {
        if (gateway != null) {
            gateway.close();
        }
    }

    private static GpuScrape scrape(String node, String namespace, Instant at, double... utilization) {
        List<GpuScrape.Device> devices = new ArrayList<>();
        for (int i = 0; i < utilization.length; i++) {
            devices.add(new GpuScrape.Device(
                    "GPU-" + node + i,
                    i,
                    LedgerRecords.pool("h200").gpuModel(),
                    null,
                    null,
                    "dcgm-exporter-test",
                    namespace,
                    "worker-" + i,
                    "main",
                    utilization[i],
                    "GR_ENGINE_ACTIVE",
                    100.0,
                    100.0,
                    300.0));
        }
        return new GpuScrape(at, node, "10.0.0.1:9400", devices);
    }

    private static HttpResponse<String> utilization(String id, String query, String token) throws Exception {
        return gateway.get("/api/v1/usage/bookings/" + id + "/utilization" + query, token, "application/json");
    }

    @Test
    void shouldShowATenantItsBookingsBusyAndIdleGpusPerMinuteUpToTheLatestWholeMinute() throws Exception {
        await().atMost(WAIT).untilAsserted(() -> {
            HttpResponse<String> response = utilization("bk-u", "?minutes=60", TEAM_U);
            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            JsonNode body = Json.mapper().readTree(response.body());
            assertThat(body.get("bookingId").asText()).isEqualTo("bk-u");
            assertThat(body.get("tenant").asText()).isEqualTo("team-u");
            assertThat(body.get("pool").asText()).isEqualTo("h200");
            assertThat(body.get("quantity").asInt()).isEqualTo(2);
            assertThat(body.get("unit").asText()).isEqualTo("GPUs");
            assertThat(body.get("asOf").asText()).isEqualTo("2026-11-25T10:03:00Z");
            // 10:00: u1 busy 60 s, u2 idle 60 s; 10:01: u1 busy 30 s then idle 30 s, u2 idle 60 s; 10:02: both
            // idle. Device-seconds / 60.
            assertThat(points(body))
                    .containsExactly(
                            "2026-11-25T10:00:00Z 1.0 1.0",
                            "2026-11-25T10:01:00Z 0.5 1.5",
                            "2026-11-25T10:02:00Z 0.0 2.0");
        });
        JsonNode lastTwo =
                Json.mapper().readTree(utilization("bk-u", "?minutes=2", TEAM_U).body());
        assertThat(points(lastTwo)).containsExactly("2026-11-25T10:01:00Z 0.5 1.5", "2026-11-25T10:02:00Z 0.0 2.0");
        JsonNode other = Json.mapper().readTree(utilization("bk-v", "", TEAM_V).body());
        assertThat(points(other))
                .containsExactly(
                        "2026-11-25T10:00:00Z 1.0 0.0", "2026-11-25T10:01:00Z 1.0 0.0", "2026-11-25T10:02:00Z 1.0 0.0");
        assertThat(utilization("bk-u", "", ADMIN).statusCode()).isEqualTo(200);
    }

    private static List<String> points(JsonNode body) {
        List<String> points = new ArrayList<>();
        body.get("points")
                .forEach(p -> points.add(p.get("minute").asText() + " "
                        + p.get("busy").asDouble() + " " + p.get("idle").asDouble()));
        return points;
    }

    @Test
    void shouldAnswerNotFoundForAnotherTenantsBookingAsForAnUnknownOneAndRefuseABadWindow() throws Exception {
        await().atMost(WAIT).until(() -> utilization("bk-u", "", TEAM_U).statusCode() == 200);
        for (String id : List.of("bk-u", "bk-nope")) {
            HttpResponse<String> response = utilization(id, "", TEAM_V);
            assertThat(response.statusCode()).as(id).isEqualTo(404);
            assertThat(response.headers().firstValue("Content-Type"))
                    .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
            assertThat(response.body()).contains("BOOKING_NOT_FOUND").doesNotContain("team-u");
        }
        for (String bad : List.of("?minutes=0", "?minutes=1441", "?minutes=ten")) {
            HttpResponse<String> response = utilization("bk-u", bad, TEAM_U);
            assertThat(response.statusCode()).as(bad).isEqualTo(400);
            assertThat(response.body()).as(bad).contains("MINUTES");
        }
        assertThat(utilization("bk-u", "", null).statusCode()).isEqualTo(401);
    }
}
