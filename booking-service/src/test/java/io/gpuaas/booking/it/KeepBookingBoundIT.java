package io.gpuaas.booking.it;

import static io.gpuaas.booking.it.BookingApp.TEAM_B;
import static io.gpuaas.events.KafkaPrincipal.IDLE_RECLAIMER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gpuaas.events.Topics;
import io.gpuaas.events.reclaim.ReclaimEvent.ReclaimKept;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The keep bound is the booking's, not each workload's: with the shipped pools' default (24 h per booking and UTC
 * day), a second workload of a booking whose first was kept 20 hours today gets at most the 4 hours left, whatever
 * idle-reclaimer (which knows workloads only) would grant it. The grant is read back from {@code reclaim-events} on the
 * real broker; the reclaimer is the dashboard fixture's fake, which would grant 24 h to a fresh workload.
 */
@ExtendWith(KafkaBrokerExtension.class)
class KeepBookingBoundIT {

    private static DashboardFixture fixture;

    @BeforeAll
    static void start(KafkaBroker broker) {
        fixture = DashboardFixture.shared(broker);
    }

    @Test
    void shouldRefuseASecondWorkloadOfTheBookingBeyondTheHoursTheBookingHasLeftToday() {
        var booked = fixture.app.post(
                TEAM_B,
                BookingApp.json(
                        Map.of("pool", "h200-mig-2g.35gb", "quantity", 1, "duration", "PT2H", "namespace", "team-b")));
        assertThat(booked.statusCode()).as(booked.body()).isEqualTo(201);
        String id = (String) BookingApp.read(booked.body()).get("id");
        String keep = "/api/v1/bookings/" + id + "/workloads/RayCluster/";
        try {
            WorkloadRef first = new WorkloadRef("team-b", "RayCluster", "ray-bound-1");
            Instant now = Instant.now();
            fixture.publish(
                    IDLE_RECLAIMER,
                    Topics.RECLAIM_EVENTS,
                    first.key(),
                    new ReclaimKept(
                            first, "team-b", "keep-bound-1", 20, now.plus(Duration.ofHours(20)), 1, 20, 4, "bob", now));
            await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> assertThat(fixture.app
                            .get("/api/v1/bookings/" + id + "/workloads", TEAM_B)
                            .body())
                    .contains("ray-bound-1", "KEPT"));

            var refused = fixture.app.send(
                    "POST", keep + "ray-bound-2/keep", TEAM_B, BookingApp.json(Map.of("hours", 8)), Map.of());

            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(409);
            assertThat(BookingApp.read(refused.body()))
                    .containsEntry("rule", "KEEP_BOUND")
                    .containsEntry("bound", "per-booking-day")
                    .containsEntry("maxHours", 24)
                    .containsEntry("hoursLeft", 4);
            assertThat(DashboardFixture.KEEPS)
                    .as("refused before idle-reclaimer is asked")
                    .noneMatch(k -> k.contains("ray-bound-2"));
            var within = fixture.app.send(
                    "POST", keep + "ray-bound-2/keep", TEAM_B, BookingApp.json(Map.of("hours", 4)), Map.of());
            assertThat(within.statusCode()).as(within.body()).isEqualTo(202);
            assertThat(DashboardFixture.KEEPS)
                    .contains("/api/v1/workloads/team-b/RayCluster/ray-bound-2/keep {\"hours\":4}");
        } finally {
            fixture.app.send("POST", "/api/v1/bookings/" + id + "/end", TEAM_B, null, Map.of());
        }
    }
}
