package io.gpuaas.booking.it;

import static io.gpuaas.booking.it.BookingApp.TEAM_A;
import static io.gpuaas.booking.it.BookingApp.TEAM_B;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.testing.kafka.KafkaBroker;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;

/**
 * The waitlist from the booking dialog in headless Chromium: a window another team filled is put on the waitlist
 * ("If it does not fit, wait for it until …"), listed as waiting under "My bookings", and cancelled from the list; a
 * second waiting request booked by the other team's cancel shows as booked with a link to its booking.
 */
class DashboardWaitlistIT extends DashboardIT {

    private static final String POOL = "h200";

    private static DashboardFixture fixture;

    @BeforeAll
    static void start(KafkaBroker broker) {
        fixture = DashboardFixture.shared(broker);
    }

    @Test
    void shouldPutARequestThatDoesNotFitOnTheWaitlistListItAndCancelItWhenATenantUsesTheDialog() {
        // 06:00 to 10:00 in the browser's zone (this machine's), 17 days ahead: the whole pool is another team's.
        ZoneId zone = ZoneId.systemDefault();
        LocalDate day = LocalDate.now(zone).plusDays(17);
        Instant six = ZonedDateTime.of(day, LocalTime.of(6, 0), zone).toInstant();
        var full =
                fixture.app.post(TEAM_B, BookingApp.createBody(POOL, 8, six, six.plus(Duration.ofHours(4)), "team-b"));
        assertThat(full.statusCode()).as(full.body()).isEqualTo(201);
        browser.signIn(fixture.app.server.getURI(), TEAM_A);

        browser.driver.findElement(By.id("book-button")).click();
        browser.wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("booking-dialog")));
        new Select(browser.driver.findElement(By.id("dlg-pool"))).selectByValue(POOL);
        set("dlg-quantity", "2");
        set("dlg-date", day.toString());
        set("dlg-start", "06:00");
        set("dlg-end", "07:00");
        WebElement waitUntil = browser.driver.findElement(By.id("dlg-wait-until"));
        assertThat(browser.driver
                        .findElement(By.xpath("//label[input[@id='dlg-wait-until']]"))
                        .getText())
                .startsWith("If it does not fit, wait for it until");
        assertThat(waitUntil.getDomAttribute("type")).isEqualTo("datetime-local");
        set("dlg-wait-until", day + "T08:00"); // the pool is full until 10:00: nothing fits by then, so it waits
        browser.driver.findElement(By.id("dlg-submit")).click();

        browser.wait.until(d -> d.findElement(By.id("message")).getText().startsWith("Does not fit now")
                || !d.findElement(By.id("dlg-error")).getText().isEmpty());
        assertThat(browser.driver.findElement(By.id("dlg-error")).getText()).isEmpty();
        assertThat(browser.driver.findElement(By.id("message")).getText())
                .contains("2 × h200 waits for room", "booked as soon as it fits");
        WebElement waiting = onlyRow("WAITING");
        String entryId = waiting.getDomAttribute("data-id");
        Map<String, Object> entry = BookingApp.read(
                fixture.app.get("/api/v1/waitlist/" + entryId, TEAM_A).body());
        assertThat(entry)
                .containsEntry("state", "WAITING")
                .containsEntry("earliestStart", six.toString())
                .containsEntry("latestStart", six.plus(Duration.ofHours(2)).toString());
        assertThat(waiting.getText()).contains(POOL, "1 h", "waiting since");
        assertThat(fixture.app.get("/api/v1/waitlist/" + entryId, TEAM_B).statusCode())
                .as("another tenant's entry")
                .isEqualTo(404);
        browser.js("arguments[0].scrollIntoView({block: 'center'});", waiting);
        browser.screenshot("dashboard-waitlist");

        // Cancelled from the list, with the keyboard: the entry ends, the row says so and offers nothing more.
        WebElement cancel = waiting.findElement(By.cssSelector("button.cancel-wait"));
        assertThat(cancel.getDomAttribute("aria-label")).startsWith("Stop waiting: 2 × h200");
        browser.js("arguments[0].focus();", cancel);
        cancel.sendKeys(Keys.ENTER);
        browser.wait.until(d -> d.findElement(By.id("message")).getText().startsWith("Stopped waiting: 2 × h200"));
        browser.wait.until(d -> "CANCELLED".equals(row(entryId).getDomAttribute("data-state")));
        assertThat(row(entryId).findElements(By.tagName("button"))).isEmpty();
        assertThat(BookingApp.read(
                        fixture.app.get("/api/v1/waitlist/" + entryId, TEAM_A).body()))
                .containsEntry("state", "CANCELLED");

        // A second request waits, and the other team's cancel books it: the list links the entry to its booking.
        String ask = BookingApp.json(Map.of(
                "pool",
                POOL,
                "quantity",
                1,
                "start",
                six.toString(),
                "end",
                six.plus(Duration.ofHours(1)).toString(),
                "namespace",
                "team-a",
                "waitlist",
                Map.of("latestStart", six.plus(Duration.ofHours(2)).toString())));
        var waits = fixture.app.post(TEAM_A, ask);
        assertThat(waits.statusCode()).as(waits.body()).isEqualTo(202);
        String secondId = (String) BookingApp.read(waits.body()).get("id");
        String blocker = (String) BookingApp.read(full.body()).get("id");
        assertThat(fixture.app
                        .send("DELETE", "/api/v1/bookings/" + blocker, TEAM_B, null, Map.of())
                        .statusCode())
                .isEqualTo(200);
        browser.wait.pollingEvery(Duration.ofSeconds(1)).until(d -> {
            if (!d.findElements(By.cssSelector("#waitlist tbody tr[data-id='" + secondId + "'][data-state='BOOKED']"))
                    .isEmpty()) {
                return true;
            }
            d.findElement(By.id("refresh")).click();
            return false;
        });
        WebElement link = row(secondId).findElement(By.cssSelector("a.booked-link"));
        assertThat(link.getDomAttribute("href")).isEqualTo("#booking-" + secondId);
        assertThat(browser.driver.findElement(By.id("booking-" + secondId)).getDomAttribute("data-state"))
                .isEqualTo("CONFIRMED");
        assertThat(browser.consoleErrors()).isEmpty();
    }

    private WebElement row(String id) {
        return browser.driver.findElement(By.cssSelector("#waitlist tbody tr[data-id='" + id + "']"));
    }

    /** The one row of the waitlist in {@code state} (the list shows the caller's entries only). */
    private WebElement onlyRow(String state) {
        browser.wait.until(d -> !d.findElements(By.cssSelector("#waitlist tbody tr[data-state='" + state + "']"))
                .isEmpty());
        List<WebElement> rows =
                browser.driver.findElements(By.cssSelector("#waitlist tbody tr[data-state='" + state + "']"));
        assertThat(rows).hasSize(1);
        return rows.getFirst();
    }

    /** Sets an input's value the way a user would end up with it, including date and time inputs. */
    private void set(String id, String value) {
        browser.js(
                "const e = document.getElementById(arguments[0]); e.value = arguments[1];"
                        + "e.dispatchEvent(new Event('input')); e.dispatchEvent(new Event('change'));",
                id,
                value);
    }
}
