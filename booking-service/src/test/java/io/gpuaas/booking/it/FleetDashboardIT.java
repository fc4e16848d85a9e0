package io.gpuaas.booking.it;

import static io.gpuaas.booking.it.BookingApp.ADMIN;
import static io.gpuaas.booking.it.BookingApp.TEAM_A;
import static io.gpuaas.booking.it.BookingApp.TEAM_B;
import static io.gpuaas.booking.it.FleetFixture.FLEX;
import static io.gpuaas.booking.it.FleetFixture.booking;
import static io.gpuaas.booking.it.FleetFixture.hoursAhead;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gpuaas.events.KafkaPrincipal;
import io.gpuaas.events.Topics;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.booking.PlacedUnit;
import io.gpuaas.events.notice.Notice;
import io.gpuaas.events.notice.Notice.MigLayoutNotReady;
import io.gpuaas.testing.kafka.KafkaBroker;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

/**
 * The flexible pool on the dashboard in headless Chromium: fit per profile and hour, whole GPUs on the overview and in
 * the admin's table, the admin's GPU layouts, a MIG layout notice on the booking it concerns.
 */
class FleetDashboardIT extends DashboardIT {

    private static FleetFixture fixture;

    @BeforeAll
    static void start(KafkaBroker broker) {
        fixture = FleetFixture.shared(broker);
    }

    @Test
    void shouldShowFewer1gSlicesWhereA3gIsBookedAndTheAdminWhereItSits() {
        Instant t = hoursAhead(3);
        fixture.publish(booking(
                "flex-ui-3g",
                "team-a",
                "3g.71gb",
                t,
                t.plus(Duration.ofHours(1)),
                BookingState.CONFIRMED,
                1,
                List.of(PlacedUnit.mig("flex-a", 0, "3g.71gb", 4))));
        await().atMost(Duration.ofSeconds(20)).until(() -> fixture.app
                .get("/api/v1/pools/" + FLEX + "/placements", ADMIN)
                .body()
                .contains("flex-ui-3g"));

        browser.signIn(fixture.app.server.getURI(), ADMIN);
        browser.wait.until(d ->
                !d.findElements(By.cssSelector("#fleet-availability tbody tr")).isEmpty());

        assertThat(browser.driver.findElements(By.cssSelector("#fleet-availability tbody tr")))
                .extracting(r -> r.getDomAttribute("data-profile"))
                .startsWith("whole GPU")
                .contains("1g.18gb", "3g.71gb", "7g.141gb");
        assertThat(cell("1g.18gb", t).getText()).isEqualTo("11");
        assertThat(cell("1g.18gb", t.plus(Duration.ofHours(1))).getText()).isEqualTo("14");
        assertThat(cell("3g.71gb", t).getText()).isEqualTo("3");
        assertThat(cell("whole GPU", t).getText()).isEqualTo("1");
        assertThat(cell("1g.18gb", t).getDomAttribute("aria-label")).startsWith("11 × 1g.18gb fit from");

        WebElement layouts = browser.driver.findElement(By.id("fleet-layouts"));
        assertThat(layouts.isDisplayed()).isTrue();
        WebElement gpu = layouts.findElement(By.cssSelector("tr[data-gpu='flex-a/0']"));
        assertThat(gpu.getText()).contains("3g.71gb@4 — flex-ui-3g").contains("idle");
        assertThat(layouts.findElement(By.cssSelector("tr[data-gpu='flex-b/0']"))
                        .getText())
                .contains("idle");
        browser.screenshot("fleet-dashboard-admin");
        // This instance has no usage ledger: its reads are 503 and the usage section says so; nothing else fails.
        assertThat(browser.consoleErrors("503")).isEmpty();
    }

    @Test
    void shouldCountWholeGpusOnTheOverviewAndTheAdminTableWhenSlicesAreBooked() {
        Instant t = hoursAhead(6);
        // Two 3g.71gb on flex-b: one booking of two units, more units than the pool has GPUs less one.
        fixture.publish(booking(
                "flex-ui-3g-pair",
                "team-a",
                "3g.71gb",
                t,
                t.plus(Duration.ofHours(1)),
                BookingState.CONFIRMED,
                1,
                List.of(PlacedUnit.mig("flex-b", 0, "3g.71gb", 4), PlacedUnit.mig("flex-b", 0, "3g.71gb", 0))));
        fixture.publish(booking(
                "flex-ui-now",
                "team-b",
                "1g.18gb",
                hoursAhead(0),
                hoursAhead(1),
                BookingState.ACTIVE,
                1,
                List.of(PlacedUnit.mig("flex-a", 0, "1g.18gb", 6), PlacedUnit.mig("flex-a", 0, "1g.18gb", 5))));
        await().atMost(Duration.ofSeconds(20)).until(() -> fixture.app
                .get("/api/v1/pools/" + FLEX + "/placements", ADMIN)
                .body()
                .contains("flex-ui-now"));

        browser.signIn(fixture.app.server.getURI(), ADMIN);

        WebElement row = browser.driver.findElement(By.cssSelector("#heatmap tr[data-pool='" + FLEX + "']"));
        assertThat(row.findElement(By.tagName("th")).getText()).isEqualTo(FLEX + " (whole GPUs)");
        WebElement pair = row.findElement(By.cssSelector("td[data-start='" + t + "']"));
        assertThat(pair.getText()).as("flex-a's GPU is still empty").isEqualTo("1");
        assertThat(pair.getDomAttribute("aria-label")).startsWith(FLEX + ": 1 of 2 whole GPUs free");
        assertThat(browser.driver.findElement(By.id("hm-flex-note")).isDisplayed())
                .isTrue();

        browser.wait.until(d -> !d.findElements(By.cssSelector("#capacity tr[data-pool='" + FLEX + "']"))
                .isEmpty());
        WebElement admin = browser.driver.findElement(By.cssSelector("#capacity tr[data-pool='" + FLEX + "']"));
        assertThat(admin.findElement(By.className("reserved")).getText()).isEqualTo("2 × 1g.18gb");
        assertThat(admin.findElement(By.className("free")).getText()).isEqualTo("1 whole GPU");
        assertThat(admin.findElement(By.className("tenants")).getText()).isEqualTo("team-b 2 × 1g.18gb");
        assertThat(admin.findElement(By.tagName("meter")).getDomAttribute("aria-label"))
                .isEqualTo(FLEX + ": 1 of 2 GPUs hold bookings now");
        browser.screenshot("fleet-dashboard-overview");
        assertThat(browser.consoleErrors("503")).isEmpty();
    }

    @Test
    void shouldShowTheMigLayoutNoticeOnTheUpcomingBookingItConcerns() {
        Instant t = hoursAhead(8);
        fixture.publish(booking(
                "flex-ui-layout",
                "team-a",
                "3g.71gb",
                t,
                t.plus(Duration.ofHours(1)),
                BookingState.CONFIRMED,
                1,
                List.of(PlacedUnit.mig("flex-a", 0, "3g.71gb", 0))));
        DashboardFixture.publish(
                fixture.broker,
                fixture.app,
                KafkaPrincipal.QUOTA_PROJECTOR,
                Topics.NOTICES,
                "flex-ui-layout",
                new MigLayoutNotReady(
                        Notice.migLayoutNotReadyId("flex-ui-layout", t),
                        "flex-ui-layout",
                        "team-a",
                        "team-a",
                        FLEX,
                        "flex-a",
                        "blocked",
                        "a running pod on flex-a holds nvidia.com/gpu, which GPU 0 offers",
                        t,
                        Instant.now()));
        String path = "/api/v1/bookings/flex-ui-layout/workloads";
        await().atMost(Duration.ofSeconds(20))
                .until(() -> fixture.app.get(path, TEAM_A).body().contains("MIG_LAYOUT_NOT_READY"));
        assertThat(fixture.app.get(path, TEAM_B).statusCode()).isEqualTo(404);

        browser.signIn(fixture.app.server.getURI(), TEAM_A);
        browser.wait.until(d -> !d.findElements(By.cssSelector("#bookings tr[data-id='flex-ui-layout'] .notice"))
                .isEmpty());

        WebElement row = browser.driver.findElement(By.cssSelector("#bookings tr[data-id='flex-ui-layout']"));
        assertThat(row.getText())
                .contains("1 × 3g.71gb", "upcoming")
                .contains("MIG layout not ready on flex-a (blocked): a running pod on flex-a holds nvidia.com/gpu")
                .contains("your workloads may stay pending");
        browser.js("arguments[0].scrollIntoView({block: 'center'});", row);
        browser.screenshot("fleet-dashboard-layout-notice");
        assertThat(browser.consoleErrors("503")).isEmpty();
    }

    @Test
    void shouldOfferTheProfilesOfAFlexiblePoolAndSendTheOneChosen() {
        browser.signIn(fixture.app.server.getURI(), TEAM_B);
        browser.wait.until(d ->
                !d.findElements(By.cssSelector("#fleet-availability tbody tr")).isEmpty());
        assertThat(browser.driver.findElement(By.id("fleet-admin")).isDisplayed())
                .isFalse();
        browser.js("window.sentBodies = [];"
                + "const send = window.fetch;"
                + "window.fetch = (url, init) => {"
                + "  if (init && init.method === 'POST') { window.sentBodies.push(init.body); }"
                + "  return send(url, init); };");

        browser.driver.findElement(By.id("book-button")).click();
        assertThat(browser.driver.findElement(By.id("dlg-profile-row")).isDisplayed())
                .isFalse();
        new Select(browser.driver.findElement(By.id("dlg-pool"))).selectByValue(FLEX);
        browser.wait.until(d -> d.findElement(By.id("dlg-profile-row")).isDisplayed()
                && d.findElements(By.cssSelector("#dlg-profile option")).size() > 1);
        Select profile = new Select(browser.driver.findElement(By.id("dlg-profile")));
        assertThat(profile.getOptions())
                .extracting(WebElement::getText)
                .startsWith("whole GPUs")
                .contains("3g.71gb");
        profile.selectByValue("3g.71gb");
        browser.driver.findElement(By.id("dlg-submit")).click();

        browser.wait.until(d -> !((List<?>) browser.js("return window.sentBodies;")).isEmpty());
        String sent = (String) ((List<?>) browser.js("return window.sentBodies;")).getFirst();
        assertThat(sent).contains("\"pool\":\"" + FLEX + "\"").contains("\"profile\":\"3g.71gb\"");
    }

    private WebElement cell(String profile, Instant start) {
        return browser.driver.findElement(By.cssSelector(
                "#fleet-availability tr[data-profile='" + profile + "'] td[data-start='" + start + "']"));
    }
}
