package io.gpuaas.booking.it;

import static io.gpuaas.booking.it.BookingApp.TEAM_A;
import static io.gpuaas.booking.it.BookingApp.TEAM_B;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gpuaas.events.Topics;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.BookingEvent.WorkloadKeepDecided;
import io.gpuaas.events.notice.Notice;
import io.gpuaas.events.reclaim.KeepRequested;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * "Keep it" is bounded per booking and UTC day by the pool's policy (the shipped pools: 24 h per answer, 24 h per
 * booking and day), decided by the pool's single writer on the real broker, whichever way the answer comes: the
 * dashboard's booking path or the notice's (and webhook's) {@code keep} link. Only what is granted reaches
 * idle-reclaimer, on {@code reclaim-keeps}. An app of its own, so no other test's booking is active in its namespaces.
 */
@ExtendWith(KafkaBrokerExtension.class)
class KeepBookingBoundIT {

    private static final String POOL = "h200-mig-2g.35gb";

    private static KafkaBroker broker;
    private static BookingApp app;

    @BeforeAll
    static void start(KafkaBroker kafka) {
        broker = kafka;
        app = BookingApp.start(kafka, Map.of("gpuaas.booking.decision-timeout", "PT20S"));
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    private static String book(String token, String namespace) {
        var booked = app.post(
                token,
                BookingApp.json(Map.of("pool", POOL, "quantity", 1, "duration", "PT2H", "namespace", namespace)));
        assertThat(booked.statusCode()).as(booked.body()).isEqualTo(201);
        return (String) BookingApp.read(booked.body()).get("id");
    }

    private static HttpResponse<String> keep(String path, String token, int hours) {
        return app.send("POST", path, token, BookingApp.json(Map.of("hours", hours)), Map.of());
    }

    private static String bookingPath(String id, String workload) {
        return "/api/v1/bookings/" + id + "/workloads/RayCluster/" + workload + "/keep";
    }

    private static List<KeepRequested> granted(String workloadKey) {
        try (CommittedRecords<KeepRequested> keeps = new CommittedRecords<>(broker, Topics.RECLAIM_KEEPS, app.prefix)) {
            keeps.poll();
            return keeps.values(workloadKey);
        }
    }

    @Test
    void shouldGrantOnlyOneOfTwoQuickAnswersWhenTogetherTheyPassTheBookingsDay() {
        String id = book(TEAM_B, "team-b");
        CompletableFuture<HttpResponse<String>> first =
                CompletableFuture.supplyAsync(() -> keep(bookingPath(id, "ray-race-1"), TEAM_B, 16));
        CompletableFuture<HttpResponse<String>> second =
                CompletableFuture.supplyAsync(() -> keep(bookingPath(id, "ray-race-2"), TEAM_B, 16));

        List<HttpResponse<String>> answers = List.of(first.join(), second.join());

        assertThat(answers)
                .as("one writer sees both answers in order: 16 + 16 > 24")
                .extracting(HttpResponse::statusCode)
                .containsExactlyInAnyOrder(202, 409);
        HttpResponse<String> refused =
                answers.stream().filter(a -> a.statusCode() == 409).findFirst().orElseThrow();
        assertThat(BookingApp.read(refused.body()))
                .containsEntry("rule", "KEEP_BOUND")
                .containsEntry("bound", "per-booking-day")
                .containsEntry("maxHours", 24)
                .containsEntry("hoursLeft", 8);
        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> assertThat(
                        granted("team-b/RayCluster/ray-race-1").size()
                                + granted("team-b/RayCluster/ray-race-2").size())
                .as("only the granted answer reaches idle-reclaimer")
                .isEqualTo(1));
        var beyond = keep(bookingPath(id, "ray-race-3"), TEAM_B, 25);
        assertThat(beyond.statusCode()).as(beyond.body()).isEqualTo(422);
        assertThat(BookingApp.read(beyond.body()))
                .containsEntry("bound", "per-answer")
                .containsEntry("maxHours", 24)
                .containsEntry("hoursLeft", 8);
        assertThat(keep(bookingPath(id, "ray-race-3"), TEAM_B, 8).statusCode())
                .as("what is left may still be kept")
                .isEqualTo(202);
        assertThat(keep(bookingPath(id, "ray-race-1"), TEAM_A, 1).statusCode())
                .as("another tenant's booking")
                .isEqualTo(404);
    }

    @Test
    void shouldNameTheKindAsEventsDoWhenTheUserTypesAShortOrPluralOneAndRefuseOthers() {
        String id = book(TEAM_B, "team-b");
        String workloads = "/api/v1/bookings/" + id + "/workloads/";

        var isvc = keep(workloads + "isvc/chat-typed/keep", TEAM_B, 1);
        var plural = keep(workloads + "rayclusters/ray-typed/keep", TEAM_B, 1);
        var deployment = keep(workloads + "Deployment/web/keep", TEAM_B, 1);

        assertThat(isvc.statusCode()).as(isvc.body()).isEqualTo(202);
        assertThat(BookingApp.read(isvc.body()).get("workload"))
                .isEqualTo(Map.of("namespace", "team-b", "kind", "InferenceService", "name", "chat-typed"));
        assertThat(plural.statusCode()).as(plural.body()).isEqualTo(202);
        assertThat(BookingApp.read(plural.body()).get("workload"))
                .isEqualTo(Map.of("namespace", "team-b", "kind", "RayCluster", "name", "ray-typed"));
        assertThat(deployment.statusCode()).as(deployment.body()).isEqualTo(400);
        assertThat(deployment.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
        assertThat(BookingApp.read(deployment.body()))
                .containsEntry("rule", "RECLAIMABLE_KIND")
                .containsEntry("field", "kind");
    }

    @Test
    void shouldChargeTheNoticesKeepLinkToTheBookingActiveInTheNamespaceAndBoundIt() {
        String id = book(TEAM_A, "team-a");
        WorkloadRef warm = new WorkloadRef("team-a", "RayCluster", "ray-link");
        String link = Notice.ReclaimPending.keepPath(warm);

        var kept = keep(link, TEAM_A, 20);

        assertThat(kept.statusCode()).as(kept.body()).isEqualTo(202);
        assertThat(BookingApp.read(kept.body()))
                .containsEntry("bookingId", id)
                .containsEntry("hoursToday", 20)
                .containsEntry("hoursLeft", 4);
        await().atMost(Duration.ofSeconds(15))
                .untilAsserted(
                        () -> assertThat(granted(warm.key())).singleElement().satisfies(k -> {
                            assertThat(k.hours()).isEqualTo(20);
                            assertThat(k.tenant()).isEqualTo("team-a");
                            assertThat(k.requestedBy()).isEqualTo("alice");
                        }));
        var again = keep(link, TEAM_A, 8);
        assertThat(again.statusCode())
                .as("the link is bounded like the booking's path")
                .isEqualTo(409);
        assertThat(BookingApp.read(again.body()))
                .containsEntry("bound", "per-booking-day")
                .containsEntry("hoursLeft", 4);
        assertThat(keep(bookingPath(id, "ray-other"), TEAM_A, 8).statusCode())
                .as("the booking's other workloads share its day")
                .isEqualTo(409);
        assertThat(keep(link, TEAM_B, 1).statusCode())
                .as("another tenant's namespace answers as an unknown one")
                .isEqualTo(404);
        assertThat(keep("/api/v1/workloads/team-b/RayCluster/ray-link/keep", TEAM_A, 1)
                        .statusCode())
                .isEqualTo(404);
    }

    @Test
    void shouldChargeAKeepToOneBookingOnlyWhenTheNamespaceHoldsTwo() {
        String first = book(TEAM_A, "team-a-dev");
        String second = book(TEAM_A, "team-a-dev");
        String link = Notice.ReclaimPending.keepPath(new WorkloadRef("team-a-dev", "InferenceService", "chat"));

        var kept = keep(link, TEAM_A, 20);

        assertThat(kept.statusCode()).as(kept.body()).isEqualTo(202);
        String charged = (String) BookingApp.read(kept.body()).get("bookingId");
        assertThat(charged).isIn(first, second);
        String other = charged.equals(first) ? second : first;
        try (CommittedRecords<BookingEvent> events =
                new CommittedRecords<>(broker, Topics.BOOKING_EVENTS, app.prefix)) {
            await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> assertThat(events.poll().stream()
                            .map(r -> r.value())
                            .filter(WorkloadKeepDecided.class::isInstance)
                            .map(WorkloadKeepDecided.class::cast)
                            .filter(k -> k.workload().namespace().equals("team-a-dev")))
                    .singleElement()
                    .satisfies(k -> assertThat(k.bookingId()).isEqualTo(charged)));
        }
        var chargedAgain = keep(bookingPath(charged, "ray-dev"), TEAM_A, 8);
        assertThat(chargedAgain.statusCode()).as(chargedAgain.body()).isEqualTo(409);
        var otherFull = keep("/api/v1/bookings/" + other + "/workloads/InferenceService/chat/keep", TEAM_A, 24);
        assertThat(otherFull.statusCode())
                .as("the other booking was not charged: its whole day is left")
                .isEqualTo(202);
    }
}
