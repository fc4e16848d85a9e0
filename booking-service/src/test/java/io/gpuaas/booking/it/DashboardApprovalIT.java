package io.gpuaas.booking.it;

import static io.gpuaas.booking.it.BookingApp.ADMIN;
import static io.gpuaas.booking.it.BookingApp.TEAM_A;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.testing.kafka.KafkaBroker;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * A booking awaiting approval in headless Chromium: the tenant's "My bookings" row and the admin's "Awaiting approval"
 * list both say until when its units are held (its hold's end, from the page's {@code holdUntil}), so neither has to
 * guess when it expires. The shipped h200 pool needs approval over 672 GPU-hours and holds a request 24 hours.
 */
class DashboardApprovalIT extends DashboardIT {

    private static DashboardFixture fixture;

    @BeforeAll
    static void start(KafkaBroker broker) {
        fixture = DashboardFixture.shared(broker);
    }

    @Test
    void shouldShowWhenThePendingBookingsHoldRunsOutToItsTenantAndToTheAdmin() {
        // 8 GPUs for 86 hours, 50 days ahead (no other dashboard test books then): 688 GPU-hours, over 672.
        Instant start = Instant.now().plus(Duration.ofDays(50)).truncatedTo(ChronoUnit.DAYS);
        var created = fixture.app.post(
                TEAM_A, BookingApp.createBody("h200", 8, start, start.plus(Duration.ofHours(86)), "team-a"));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(202);
        Map<String, Object> booking = BookingApp.read(created.body());
        String id = (String) booking.get("id");
        Instant holdUntil = Instant.parse((String) booking.get("createdAt")).plus(Duration.ofHours(24));
        assertThat(BookingApp.read(fixture.app
                                .get("/api/v1/bookings?state=PENDING_APPROVAL", TEAM_A)
                                .body())
                        .get("holdUntil"))
                .as("the page names each pending item's hold end")
                .isEqualTo(Map.of(id, holdUntil.toString()));
        try {
            browser.signIn(fixture.app.server.getURI(), TEAM_A);
            WebElement status = browser.wait.until(
                    d -> d.findElement(By.cssSelector("#bookings tbody tr[data-id='" + id + "'] td.status")));
            assertThat(status.getDomAttribute("data-hold-until")).isEqualTo(holdUntil.toString());
            assertThat(status.getText())
                    .contains("awaiting an admin's approval", "units held until", "then it expires unless decided");
            assertThat(browser.consoleErrors()).isEmpty();

            browser.js("sessionStorage.clear();"); // signed out: the admin signs in on the same page
            browser.signIn(fixture.app.server.getURI(), ADMIN);
            WebElement row = browser.wait.until(
                    d -> d.findElement(By.cssSelector("#awaiting-approval tbody tr[data-id='" + id + "']")));
            assertThat(browser.driver
                            .findElements(By.cssSelector("#awaiting-approval thead th"))
                            .get(5)
                            .getText())
                    .isEqualTo("Held until");
            WebElement held = row.findElements(By.tagName("td")).get(5);
            assertThat(held.findElement(By.tagName("time")).getDomAttribute("datetime"))
                    .isEqualTo(holdUntil.toString());
            assertThat(held.getText()).isNotBlank();
            browser.js("arguments[0].scrollIntoView({block: 'center'});", row);
            browser.screenshot("dashboard-approval-hold");
            assertThat(browser.consoleErrors()).isEmpty();
        } finally {
            fixture.app.send("DELETE", "/api/v1/bookings/" + id, TEAM_A, null, Map.of());
        }
    }
}
