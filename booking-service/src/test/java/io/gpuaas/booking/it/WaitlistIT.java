package io.gpuaas.booking.it;

import static io.gpuaas.booking.it.BookingApp.ADMIN;
import static io.gpuaas.booking.it.BookingApp.TEAM_A;
import static io.gpuaas.booking.it.BookingApp.TEAM_B;
import static io.gpuaas.booking.it.BookingApp.createBody;
import static io.gpuaas.booking.it.BookingApp.hourFromNow;
import static io.gpuaas.booking.it.BookingApp.json;
import static io.gpuaas.booking.it.BookingApp.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gpuaas.events.Topics;
import io.gpuaas.events.notice.Notice;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The waitlist over HTTP against the real broker, on an instance of its own (its own topics): a request that does not
 * fit waits, is booked by the cancel that frees its room (in that very decision, not before), is cancelled only by its
 * tenant, and expires at its latest start; both outcomes are notices on {@code gpuaas.notices}. Each test uses a pool
 * of its own.
 */
@ExtendWith(KafkaBrokerExtension.class)
class WaitlistIT {

    private static BookingApp app;
    private static CommittedRecords<Notice> notices;

    @BeforeAll
    static void start(KafkaBroker broker) {
        app = BookingApp.start(broker, Map.of());
        notices = new CommittedRecords<>(broker, Topics.NOTICES, app.prefix);
    }

    @AfterAll
    static void stop() {
        notices.close();
        app.close();
    }

    @Test
    void shouldBookAWaitingRequestInTheDecisionOfTheCancelThatFreesItsRoomAndNotBefore() {
        String pool = "h200-mig-2g.35gb";
        Instant start = hourFromNow(30);
        Instant end = start.plus(Duration.ofHours(2));
        Map<String, Object> full = created(app.post(TEAM_A, createBody(pool, 9, start, end, "team-a")));
        Map<String, Object> elsewhere = created(app.post(
                TEAM_A, createBody(pool, 9, end.plus(Duration.ofHours(4)), end.plus(Duration.ofHours(5)), "team-a")));

        HttpResponse<String> waiting = app.post(TEAM_B, waitingBody(pool, 3, start, end, start.plusSeconds(1800)));

        assertThat(waiting.statusCode()).as(waiting.body()).isEqualTo(202);
        Map<String, Object> entry = read(waiting.body());
        String id = (String) entry.get("id");
        assertThat(entry).containsEntry("state", "WAITING").containsEntry("tenant", "team-b");
        assertThat(waiting.headers().firstValue("Location")).hasValue("/api/v1/waitlist/" + id);

        // An unrelated change that frees room, but not in the window the entry needs: it stays waiting. The answer
        // comes from the same transaction that would have booked it, so reading right after it is no race.
        assertThat(app.send("DELETE", "/api/v1/bookings/" + elsewhere.get("id"), TEAM_A, null, Map.of())
                        .statusCode())
                .isEqualTo(200);
        assertThat(read(app.get("/api/v1/waitlist/" + id, TEAM_B).body())).containsEntry("state", "WAITING");
        assertThat(app.get("/api/v1/bookings/" + id, TEAM_B).statusCode()).isEqualTo(404);

        HttpResponse<String> cancel = app.send("DELETE", "/api/v1/bookings/" + full.get("id"), TEAM_A, null, Map.of());
        long answeredAt = System.nanoTime();

        assertThat(cancel.statusCode()).as(cancel.body()).isEqualTo(200);
        Instant freedAt = Instant.parse((String) read(cancel.body()).get("updatedAt"));
        Map<String, Object> booked = awaitBody("/api/v1/bookings/" + id, TEAM_B);
        System.out.printf(
                "waitlisted booking visible %d ms after the cancel's answer%n",
                (System.nanoTime() - answeredAt) / 1_000_000);
        assertThat(booked)
                .containsEntry("state", "CONFIRMED")
                .containsEntry("quantity", 3)
                .containsEntry("start", start.toString())
                .containsEntry("end", end.toString());
        assertThat(Instant.parse((String) booked.get("createdAt")))
                .as("booked in the cancel's own decision: the same instant on the engine's clock")
                .isEqualTo(freedAt);
        assertThat(read(app.get("/api/v1/waitlist/" + id, TEAM_B).body())).containsEntry("state", "BOOKED");
        Notice.WaitlistBooked notice = (Notice.WaitlistBooked) awaitNotice(id);
        assertThat(notice.noticeId()).isEqualTo(Notice.waitlistBookedId(id));
        assertThat(notice.time()).isEqualTo(freedAt);
        assertThat(notice.start()).isEqualTo(start);
        assertThat(notice.tenant()).isEqualTo("team-b");
    }

    @Test
    void shouldExpireAtItsLatestStartWithANoticeAndBookNothingAfter() {
        String pool = "h200";
        Map<String, Object> full = created(app.post(TEAM_A, bookNow(pool, 8, "PT1H")));
        Instant latestStart = Instant.now().plusSeconds(4);
        Map<String, Object> body = new LinkedHashMap<>(read(bookNow(pool, 2, "PT30M")));
        body.put("namespace", "team-b");
        body.put("waitlist", Map.of("latestStart", latestStart.toString()));

        HttpResponse<String> waiting = app.post(TEAM_B, json(body));

        assertThat(waiting.statusCode()).as(waiting.body()).isEqualTo(202);
        String id = (String) read(waiting.body()).get("id");
        Notice.WaitlistExpired expired = (Notice.WaitlistExpired) awaitNotice(id);
        assertThat(expired.noticeId()).isEqualTo(Notice.waitlistExpiredId(id));
        assertThat(expired.time()).as("never before its latest start").isAfterOrEqualTo(latestStart);
        assertThat(expired.latestStart()).isEqualTo(latestStart);
        assertThat(read(app.get("/api/v1/waitlist/" + id, TEAM_B).body())).containsEntry("state", "EXPIRED");

        HttpResponse<String> ended =
                app.send("POST", "/api/v1/bookings/" + full.get("id") + "/end", TEAM_A, null, Map.of());

        assertThat(ended.statusCode()).as(ended.body()).isEqualTo(200);
        assertThat(app.get("/api/v1/bookings/" + id, TEAM_B).statusCode())
                .as("an expired entry is not booked by a later release")
                .isEqualTo(404);
        assertThat(notices.values(id)).as("one notice").hasSize(1);
    }

    @Test
    void shouldLetOnlyItsTenantOrAnAdminSeeAndCancelAWaitingEntry() {
        String pool = "h200-mig-3g.71gb";
        Instant start = hourFromNow(40);
        Instant end = start.plus(Duration.ofHours(1));
        created(app.post(TEAM_A, createBody(pool, 6, start, end, "team-a")));
        HttpResponse<String> waiting = app.post(TEAM_B, waitingBody(pool, 1, start, end, start.plusSeconds(1800)));
        assertThat(waiting.statusCode()).as(waiting.body()).isEqualTo(202);
        String id = (String) read(waiting.body()).get("id");

        HttpResponse<String> otherGet = app.get("/api/v1/waitlist/" + id, TEAM_A);
        HttpResponse<String> otherCancel = app.send("DELETE", "/api/v1/waitlist/" + id, TEAM_A, null, Map.of());
        HttpResponse<String> unknown = app.get("/api/v1/waitlist/no-such-entry", TEAM_A);
        List<String> adminSees = ids(ADMIN);
        List<String> otherSees = ids(TEAM_A);
        HttpResponse<String> cancelled = app.send("DELETE", "/api/v1/waitlist/" + id, TEAM_B, null, Map.of());

        assertThat(otherGet.statusCode()).isEqualTo(404);
        assertThat(otherCancel.statusCode()).isEqualTo(404);
        assertThat(read(otherGet.body()))
                .as("the same answer as an unknown entry")
                .containsEntry("rule", read(unknown.body()).get("rule"))
                .containsEntry("status", 404);
        assertThat(adminSees).contains(id);
        assertThat(otherSees).doesNotContain(id);
        assertThat(cancelled.statusCode()).as(cancelled.body()).isEqualTo(200);
        assertThat(read(cancelled.body())).containsEntry("state", "CANCELLED");
        assertThat(ids(TEAM_B)).as("no longer waiting").doesNotContain(id);
    }

    @Test
    void shouldAnswer400WhenTheLatestStartIsBeforeTheStartOrNotADate() {
        Instant start = hourFromNow(50);
        Instant end = start.plus(Duration.ofHours(1));

        HttpResponse<String> backwards = app.post(TEAM_B, waitingBody("h200", 1, start, end, start.minusSeconds(60)));
        Map<String, Object> notADate = new LinkedHashMap<>(read(createBody("h200", 1, start, end, "team-b")));
        notADate.put("waitlist", Map.of("latestStart", "tomorrow"));
        HttpResponse<String> garbled = app.post(TEAM_B, json(notADate));

        assertThat(backwards.statusCode()).as(backwards.body()).isEqualTo(400);
        assertThat(read(backwards.body())).containsEntry("rule", "INVALID_WAITLIST");
        assertThat(garbled.statusCode()).as(garbled.body()).isEqualTo(400);
    }

    /** The ids of the waiting entries {@code token} sees. */
    private static List<String> ids(String token) {
        List<?> entries =
                (List<?>) read(app.get("/api/v1/waitlist", token).body()).get("entries");
        return entries.stream()
                .map(e -> String.valueOf(((Map<?, ?>) e).get("id")))
                .toList();
    }

    private static String waitingBody(String pool, int quantity, Instant start, Instant end, Instant latestStart) {
        Map<String, Object> body = new LinkedHashMap<>(read(createBody(pool, quantity, start, end, "team-b")));
        body.put("waitlist", Map.of("latestStart", latestStart.toString()));
        return json(body);
    }

    private static String bookNow(String pool, int quantity, String duration) {
        return json(Map.of("pool", pool, "quantity", quantity, "namespace", "team-a", "duration", duration));
    }

    private static Map<String, Object> created(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        return read(response.body());
    }

    private static Map<String, Object> awaitBody(String path, String token) {
        return await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> app.get(path, token), r -> r.statusCode() == 200)
                .body()
                .transform(BookingApp::read);
    }

    private static Notice awaitNotice(String id) {
        return await().atMost(Duration.ofSeconds(30))
                .until(() -> notices.values(id), list -> !list.isEmpty())
                .getFirst();
    }
}
