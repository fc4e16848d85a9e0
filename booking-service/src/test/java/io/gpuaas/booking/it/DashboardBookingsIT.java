package io.gpuaas.booking.it;

import static io.gpuaas.booking.it.BookingApp.ADMIN;
import static io.gpuaas.booking.it.BookingApp.TEAM_A;
import static io.gpuaas.booking.it.BookingApp.TEAM_B;
import static io.gpuaas.events.KafkaPrincipal.BOOKING_SERVICE;
import static io.gpuaas.events.KafkaPrincipal.IDLE_RECLAIMER;
import static io.gpuaas.events.KafkaPrincipal.QUOTA_PROJECTOR;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gpuaas.booking.it.DashboardFixture.ResumeCall;
import io.gpuaas.events.Topics;
import io.gpuaas.events.notice.Notice;
import io.gpuaas.events.notice.Notice.NoShowWarning;
import io.gpuaas.events.notice.Notice.ReclaimPending;
import io.gpuaas.events.reclaim.KeepRequested;
import io.gpuaas.events.reclaim.ReclaimEvent.Reclaimed;
import io.gpuaas.events.reclaim.ReclaimEvent.ScaledGroup;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.events.workload.WorkloadEvent;
import io.gpuaas.events.workload.WorkloadEvent.Condition;
import io.gpuaas.events.workload.WorkloadEvent.PodSet;
import io.gpuaas.events.workload.WorkloadEvent.PodSetAdmission;
import io.gpuaas.events.workload.WorkloadEvent.WorkloadObserved;
import io.gpuaas.testing.kafka.KafkaBroker;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

/** "My bookings" in headless Chromium: what runs under a booking, its notices, Resume, extend, end now, cancel. */
class DashboardBookingsIT extends DashboardIT {

    private static final String MIG_1G = "h200-mig-1g.18gb";

    private static DashboardFixture fixture;

    @BeforeAll
    static void start(KafkaBroker broker) {
        fixture = DashboardFixture.shared(broker);
    }

    @Test
    void shouldShowWorkloadsNoticesAndResumeWhenABookingIsInUse() {
        Map<String, Object> inUse = bookNow(MIG_1G, 2, "PT2H");
        String id = (String) inUse.get("id");
        Map<String, Object> unused = bookNow("h200-mig-3g.71gb", 1, "PT2H");
        Instant now = Instant.now();
        fixture.publish(QUOTA_PROJECTOR, Topics.KUEUE_WORKLOADS, "team-a/train-1", admitted("train-1"));
        fixture.publish(QUOTA_PROJECTOR, Topics.KUEUE_WORKLOADS, "team-a/notebook-2", pending("notebook-2"));
        WorkloadRef idle = new WorkloadRef("team-a", "RayCluster", "ray-idle");
        fixture.publish(
                IDLE_RECLAIMER,
                Topics.RECLAIM_EVENTS,
                idle.key(),
                new Reclaimed(
                        idle,
                        "team-a",
                        List.of(new ScaledGroup("workers", 2, null, 0)),
                        2,
                        1800,
                        "RayCluster worker groups to 0",
                        false,
                        now));
        WorkloadRef down = new WorkloadRef("team-a", "RayCluster", "ray-down");
        fixture.publish(
                IDLE_RECLAIMER,
                Topics.RECLAIM_EVENTS,
                down.key(),
                new Reclaimed(
                        down,
                        "team-a",
                        List.of(new ScaledGroup("workers", 1, null, 0)),
                        1,
                        1800,
                        "RayCluster worker groups to 0",
                        false,
                        now));
        WorkloadRef warm = new WorkloadRef("team-a", "RayCluster", "ray-warm");
        Instant idleSince = now.minus(Duration.ofMinutes(24));
        fixture.publish(
                IDLE_RECLAIMER,
                Topics.NOTICES,
                warm.key(),
                new ReclaimPending(
                        Notice.reclaimPendingId(warm, idleSince),
                        "team-a",
                        "team-a",
                        warm,
                        warm.key() + "@" + idleSince,
                        idleSince,
                        idleSince.plus(Duration.ofMinutes(30)),
                        Duration.ofMinutes(30),
                        now));
        String unusedId = (String) unused.get("id");
        Instant activeSince = Instant.parse((String) unused.get("start"));
        fixture.publish(
                BOOKING_SERVICE,
                Topics.NOTICES,
                unusedId,
                new NoShowWarning(
                        Notice.noShowWarningId(unusedId),
                        unusedId,
                        "team-a",
                        "team-a",
                        "h200-mig-3g.71gb",
                        1,
                        activeSince,
                        activeSince.plus(Duration.ofMinutes(15)),
                        Duration.ofMinutes(15),
                        now));

        browser.signIn(fixture.app.server.getURI(), TEAM_A);
        String workloads = "#bookings tr.workloads[data-booking='" + id + "'] li";
        refreshUntil(d -> d.findElements(By.cssSelector(workloads)).size() >= 5
                && !rowOf(unusedId).findElements(By.className("notice")).isEmpty());
        assertThat(browser.driver.findElements(By.cssSelector(workloads)))
                .extracting(li -> li.getDomAttribute("data-name") + "=" + li.getDomAttribute("data-state"))
                .contains("train-1=ADMITTED", "notebook-2=PENDING", "ray-idle=RECLAIMED", "ray-warm=IDLE");
        assertThat(item(id, "ray-idle").getText()).contains("idle for 30 min", "RayCluster worker groups to 0");
        assertThat(item(id, "ray-warm").getText()).contains("reclaim pending");
        assertThat(item(id, "train-1").findElements(By.tagName("button"))).isEmpty();
        assertThat(rowOf(unusedId).getText()).contains("no-show warning");
        browser.js("arguments[0].scrollIntoView({block: 'center'});", item(id, "ray-idle"));
        browser.screenshot("dashboard-workloads");

        // Answering the warning: the largest button is within the default bounds (the whole day in one answer); the
        // day used, a further answer is refused with what is left in words.
        assertThat(item(id, "ray-warm").findElements(By.cssSelector("button.keep")))
                .extracting(WebElement::getText)
                .containsExactly("Keep 4 h", "Keep 8 h", "Keep 24 h");
        browser.wait.until(d -> {
            item(id, "ray-warm")
                    .findElements(By.cssSelector("button.keep"))
                    .get(2)
                    .click();
            return true;
        });
        browser.wait.until(d -> d.findElement(By.id("message"))
                .getText()
                .equals("Kept RayCluster ray-warm for 24 h; 0 h left today for this booking"));
        browser.wait.until(d -> {
            item(id, "ray-warm")
                    .findElements(By.cssSelector("button.keep"))
                    .get(0)
                    .click();
            return true;
        });
        browser.wait.until(
                d -> d.findElement(By.id("message")).getText().equals("Keep refused: 0 h left today for this booking"));
        try (CommittedRecords<KeepRequested> keeps =
                new CommittedRecords<>(fixture.broker, Topics.RECLAIM_KEEPS, fixture.app.prefix)) {
            await().atMost(Duration.ofSeconds(15))
                    .untilAsserted(() -> assertThat(keeps.values("team-a/RayCluster/ray-warm"))
                            .as("only the granted answer reaches idle-reclaimer")
                            .singleElement()
                            .satisfies(k -> assertThat(k.hours()).isEqualTo(24)));
        }
        assertThat(fixture.app
                        .send(
                                "POST",
                                "/api/v1/bookings/" + id + "/workloads/RayCluster/ray-warm/keep",
                                TEAM_B,
                                "{\"hours\":4}",
                                Map.of())
                        .statusCode())
                .as("another tenant's booking")
                .isEqualTo(404);
        assertThat(browser.consoleErrors("409")).isEmpty();

        int before = DashboardFixture.RESUMES.size();
        browser.wait.until(d -> {
            item(id, "ray-idle").findElement(By.cssSelector("button.resume")).click();
            return true;
        });
        browser.wait.until(d -> d.findElement(By.id("message")).getText().startsWith("Resumed RayCluster ray-idle"));
        assertThat(DashboardFixture.RESUMES.subList(before, DashboardFixture.RESUMES.size()))
                .containsExactly(
                        new ResumeCall("/api/v1/workloads/team-a/RayCluster/ray-idle/resume", "Bearer " + TEAM_A));
        assertThat(browser.consoleErrors()).isEmpty();

        // Tenant-scoped: another tenant learns nothing and cannot resume; an admin sees it.
        String path = "/api/v1/bookings/" + id + "/workloads";
        assertThat(fixture.app.get(path, TEAM_B).statusCode()).isEqualTo(404);
        assertThat(fixture.app
                        .send("POST", path + "/RayCluster/ray-idle/resume", TEAM_B, null, Map.of())
                        .statusCode())
                .isEqualTo(404);
        assertThat(fixture.app.get(path, ADMIN).body()).contains("train-1", "ray-idle");
        assertThat(DashboardFixture.RESUMES).hasSize(before + 1);

        // A reclaimer that fails: the page says Resume is unavailable, not a bare status. The page says "Resumed"
        // before it redraws the bookings, so the button is found again if the redraw replaced it (the wait ignores
        // a stale element).
        browser.wait.until(d -> {
            item(id, "ray-down").findElement(By.cssSelector("button.resume")).click();
            return true;
        });
        browser.wait.until(d -> d.findElement(By.id("message")).getText().startsWith("Resume unavailable"));
        assertThat(browser.consoleErrors("502")).isEmpty();
    }

    @Test
    void shouldExtendEndAndCancelWhenATenantActsOnItsBookings() {
        Instant start = BookingApp.hourFromNow(30);
        var later = fixture.app.post(
                TEAM_A, BookingApp.createBody("h200", 1, start, start.plus(Duration.ofHours(1)), "team-a"));
        assertThat(later.statusCode()).isEqualTo(201);
        String laterId = (String) BookingApp.read(later.body()).get("id");
        String nowId = (String) bookNow("h200-mig-2g.35gb", 1, "PT15M").get("id");
        browser.signIn(fixture.app.server.getURI(), TEAM_A);
        assertThat(rowOf(nowId).getText()).contains("active", "left", "ending soon");
        assertThat(rowOf(laterId).getText()).contains("upcoming · starts in");

        rowOf(laterId).findElement(By.cssSelector("button.extend")).click();
        browser.wait.until(d -> d.findElement(By.id("message")).getText().startsWith("Extended"));
        assertThat(BookingApp.read(fixture.app
                                .get("/api/v1/bookings/" + laterId, TEAM_A)
                                .body())
                        .get("end"))
                .isEqualTo(start.plus(Duration.ofHours(2)).toString());

        rowOf(nowId).findElement(By.cssSelector("button.end")).click();
        browser.wait.until(d -> d.findElement(By.id("message")).getText().startsWith("Ended 1 × h200-mig-2g.35gb"));
        assertThat(rowOf(nowId).getDomAttribute("data-state")).isEqualTo("RELEASED");
        assertThat(rowOf(nowId).getText()).contains("released");

        rowOf(laterId).findElement(By.cssSelector("button.cancel")).click();
        browser.wait.until(d -> d.findElement(By.id("message")).getText().startsWith("Cancelled"));
        assertThat(rowOf(laterId).getDomAttribute("data-state")).isEqualTo("CANCELLED");
        assertThat(rowOf(laterId).findElements(By.tagName("button"))).isEmpty();
        browser.js("arguments[0].scrollIntoView({block: 'center'});", rowOf(laterId));
        browser.screenshot("dashboard-actions");
        assertThat(browser.consoleErrors()).isEmpty();
    }

    private Map<String, Object> bookNow(String pool, int quantity, String duration) {
        var res = fixture.app.post(
                TEAM_A,
                BookingApp.json(
                        Map.of("pool", pool, "quantity", quantity, "duration", duration, "namespace", "team-a")));
        assertThat(res.statusCode()).as(res.body()).isEqualTo(201);
        return BookingApp.read(res.body());
    }

    private void refreshUntil(java.util.function.Function<WebDriver, Boolean> shown) {
        browser.wait.pollingEvery(Duration.ofSeconds(1)).until(d -> {
            if (shown.apply(d)) {
                return true;
            }
            d.findElement(By.id("refresh")).click();
            return false;
        });
    }

    private WebElement rowOf(String bookingId) {
        return browser.driver.findElement(By.cssSelector("#bookings tbody tr[data-id='" + bookingId + "']"));
    }

    private WebElement item(String bookingId, String name) {
        return browser.driver.findElement(By.cssSelector(
                "#bookings tr.workloads[data-booking='" + bookingId + "'] li[data-name='" + name + "']"));
    }

    private static WorkloadObserved admitted(String name) {
        Condition in = new Condition("Admitted", "True", "Admitted", "admitted", Instant.now());
        return new WorkloadObserved(
                "team-a",
                name,
                "uid-" + name,
                "2",
                "gpuaas",
                "gpuaas-team-a",
                null,
                null,
                true,
                in,
                List.of(in),
                List.of(new PodSet("workers", 1, Map.of("nvidia.com/mig-1g.18gb", "1"))),
                List.of(new PodSetAdmission(
                        "workers", 1, Map.of("nvidia.com/mig-1g.18gb", MIG_1G), Map.of("nvidia.com/mig-1g.18gb", "1"))),
                null,
                Instant.now());
    }

    private static WorkloadEvent pending(String name) {
        Condition waiting = new Condition("QuotaReserved", "False", "Pending", "waiting for quota", Instant.now());
        return new WorkloadObserved(
                "team-a",
                name,
                "uid-" + name,
                "1",
                "gpuaas",
                null,
                null,
                null,
                true,
                waiting,
                List.of(waiting),
                List.of(new PodSet("workers", 1, Map.of("nvidia.com/mig-1g.18gb", "1"))),
                List.of(),
                null,
                Instant.now());
    }
}
