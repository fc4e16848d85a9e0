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
import io.gpuaas.events.booking.BookingEvent.BookingApprovalDecided.Outcome;
import io.gpuaas.events.notice.Notice;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Approval of large bookings over HTTP against the real broker: a booking over its pool's threshold waits
 * PENDING_APPROVAL holding its units; an admin approves (CONFIRMED, then ACTIVE at its start) or denies (units free);
 * unanswered, it expires at its hold. The tenant is told it awaits approval (one BookingAwaitingApproval notice with
 * the hold's end), and each outcome is one ApprovalDecided notice on gpuaas.notices. Every test has a
 * pool of its own (4 GPUs, over 0.01 GPU-hours needs approval, held an hour), so they do not share capacity.
 */
@ExtendWith(KafkaBrokerExtension.class)
class ApprovalIT {

    private static BookingApp app;
    private static CommittedRecords<Notice> notices;

    @BeforeAll
    static void start(KafkaBroker broker) throws IOException {
        StringBuilder pools = new StringBuilder("[");
        for (String id : new String[] {"appr-approve", "appr-deny", "appr-expire"}) {
            pools.append(pools.length() > 1 ? "," : "")
                    .append("{\"id\": \"")
                    .append(id)
                    .append("\", \"flavor\": \"")
                    .append(id)
                    .append("\", \"resource\": \"nvidia.com/gpu\", \"capacity\": 4, \"gpuModel\": \"NVIDIA H200\",")
                    .append(" \"approval\": {\"overUnitHours\": 0.01, \"hold\": \"PT1H\"}}");
        }
        Path file = Files.writeString(Files.createTempFile("pools", ".json"), pools.append("]"));
        app = BookingApp.start(
                broker,
                Map.of(
                        "gpuaas.pools-file", file.toString(),
                        "gpuaas.booking.alignment", "PT1S",
                        "gpuaas.booking.decision-timeout", "PT15S"));
        notices = new CommittedRecords<>(broker, Topics.NOTICES, app.prefix);
    }

    @AfterAll
    static void stop() {
        notices.close();
        app.close();
    }

    @Test
    void shouldHoldTheUnitsThenConfirmAndActivateWhenAnAdminApproves() {
        Instant start = Instant.now().plusSeconds(8).truncatedTo(ChronoUnit.SECONDS);
        HttpResponse<String> created =
                app.post(TEAM_A, createBody("appr-approve", 4, start, start.plusSeconds(120), "team-a"));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(202);
        assertThat(read(created.body())).containsEntry("state", "PENDING_APPROVAL");
        String location = created.headers().firstValue("Location").orElseThrow();

        HttpResponse<String> other =
                app.post(TEAM_B, createBody("appr-approve", 1, start, start.plusSeconds(60), "team-b"));
        assertThat(other.statusCode())
                .as("the pending booking holds the pool: " + other.body())
                .isEqualTo(409);
        HttpResponse<String> byTenant = app.send("POST", location + "/approval", TEAM_A, approve(), Map.of());
        assertThat(byTenant.statusCode()).isEqualTo(403);
        assertThat(byTenant.headers().firstValue("Content-Type").orElseThrow()).contains("problem+json");

        HttpResponse<String> approved = app.send("POST", location + "/approval", ADMIN, approve(), Map.of());

        assertThat(approved.statusCode()).as(approved.body()).isEqualTo(200);
        assertThat(read(approved.body())).containsEntry("state", "CONFIRMED");
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(
                        () -> assertThat(read(app.get(location, TEAM_A).body())).containsEntry("state", "ACTIVE"));
        String id = (String) read(created.body()).get("id");
        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> assertThat(notices.values(id))
                .filteredOn(Notice.ApprovalDecided.class::isInstance)
                .singleElement()
                .isInstanceOfSatisfying(Notice.ApprovalDecided.class, n -> {
                    assertThat(n.outcome()).isEqualTo(Outcome.APPROVED);
                    assertThat(n.decidedBy()).isEqualTo("root");
                    assertThat(n.tenant()).isEqualTo("team-a");
                }));
        assertThat(notices.values(id))
                .as("told it awaits approval before it was decided, with the hold's end: its start, within the hour")
                .first()
                .isInstanceOfSatisfying(Notice.BookingAwaitingApproval.class, n -> {
                    assertThat(n.noticeId()).isEqualTo(id + "/awaiting-approval");
                    assertThat(n.tenant()).isEqualTo("team-a");
                    assertThat(n.holdUntil()).isEqualTo(start);
                    assertThat(n.quantity()).isEqualTo(4);
                });
        assertThat(notices.values(id))
                .filteredOn(Notice.BookingAwaitingApproval.class::isInstance)
                .hasSize(1);
    }

    @Test
    void shouldFreeTheUnitsWhenAnAdminDenies() {
        Instant start = Instant.now().plus(Duration.ofHours(3)).truncatedTo(ChronoUnit.HOURS);
        HttpResponse<String> created =
                app.post(TEAM_A, createBody("appr-deny", 4, start, start.plusSeconds(3600), "team-a"));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(202);
        String location = created.headers().firstValue("Location").orElseThrow();
        assertThat(app.post(TEAM_B, createBody("appr-deny", 1, start, start.plusSeconds(30), "team-b"))
                        .statusCode())
                .isEqualTo(409);
        assertThat(app.get("/api/v1/bookings?state=PENDING_APPROVAL", ADMIN).body())
                .as("the admin's list of what awaits approval")
                .contains(location.substring(location.lastIndexOf('/') + 1));

        HttpResponse<String> denied = app.send(
                "POST", location + "/approval", ADMIN, json(Map.of("decision", "deny", "reason", "budget")), Map.of());

        assertThat(denied.statusCode()).as(denied.body()).isEqualTo(200);
        assertThat(read(denied.body())).containsEntry("state", "DENIED");
        HttpResponse<String> next =
                app.post(TEAM_B, createBody("appr-deny", 1, start, start.plusSeconds(30), "team-b"));
        assertThat(next.statusCode())
                .as("the units are free again: " + next.body())
                .isEqualTo(201);
        HttpResponse<String> again = app.send("POST", location + "/approval", ADMIN, approve(), Map.of());
        assertThat(again.statusCode()).as("decided once: " + again.body()).isEqualTo(409);
        String id = (String) read(created.body()).get("id");
        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> assertThat(notices.values(id))
                .filteredOn(Notice.ApprovalDecided.class::isInstance)
                .singleElement()
                .isInstanceOfSatisfying(Notice.ApprovalDecided.class, n -> {
                    assertThat(n.outcome()).isEqualTo(Outcome.DENIED);
                    assertThat(n.reason()).isEqualTo("budget");
                }));
        Instant createdAt = Instant.parse((String) read(created.body()).get("createdAt"));
        assertThat(notices.values(id))
                .filteredOn(Notice.BookingAwaitingApproval.class::isInstance)
                .singleElement()
                .isInstanceOfSatisfying(Notice.BookingAwaitingApproval.class, n -> assertThat(n.holdUntil())
                        .as("the pool's hour after the decision, well before the start")
                        .isEqualTo(createdAt.plus(Duration.ofHours(1))));
    }

    @Test
    void shouldExpireAndFreeTheUnitsWhenNobodyDecidesBeforeTheHoldRunsOut() {
        // The hold is an hour, but never past the start: this one starts in a few seconds.
        Instant start = Instant.now().plusSeconds(4).truncatedTo(ChronoUnit.SECONDS);
        HttpResponse<String> created =
                app.post(TEAM_A, createBody("appr-expire", 4, start, start.plusSeconds(600), "team-a"));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(202);
        String location = created.headers().firstValue("Location").orElseThrow();
        String id = (String) read(created.body()).get("id");

        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(
                        () -> assertThat(read(app.get(location, TEAM_A).body())).containsEntry("state", "DENIED"));

        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> assertThat(notices.values(id))
                .filteredOn(Notice.ApprovalDecided.class::isInstance)
                .singleElement()
                .isInstanceOfSatisfying(Notice.ApprovalDecided.class, n -> {
                    assertThat(n.outcome()).isEqualTo(Outcome.EXPIRED);
                    assertThat(n.decidedBy()).isNull();
                }));
        HttpResponse<String> next =
                app.post(TEAM_B, createBody("appr-expire", 1, start, start.plusSeconds(30), "team-b"));
        assertThat(next.statusCode())
                .as("the units are free again: " + next.body())
                .isEqualTo(201);
        assertThat(read(next.body())).containsEntry("state", "ACTIVE");
    }

    private static String approve() {
        return json(Map.of("decision", "approve"));
    }
}
