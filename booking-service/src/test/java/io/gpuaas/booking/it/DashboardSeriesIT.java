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
import java.time.format.TextStyle;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;

/**
 * A weekly series from the booking dialog in headless Chromium: the answer names the week another team filled, the
 * list marks the occurrences as a series, and "Cancel rest of series" cancels them in one step.
 */
class DashboardSeriesIT extends DashboardIT {

    private static final String POOL = "h200";

    private static DashboardFixture fixture;

    @BeforeAll
    static void start(KafkaBroker broker) {
        fixture = DashboardFixture.shared(broker);
    }

    @Test
    void shouldBookAWeeklySeriesShowItAndCancelItsRestWhenATenantUsesTheDialog() {
        // 06:00 in the browser's zone (this machine's), 24 days ahead; the second week is nearly full.
        ZoneId zone = ZoneId.systemDefault();
        LocalDate day = LocalDate.now(zone).plusDays(24);
        Instant first = ZonedDateTime.of(day, LocalTime.of(6, 0), zone).toInstant();
        Instant second =
                ZonedDateTime.of(day.plusWeeks(1), LocalTime.of(6, 0), zone).toInstant();
        var taken = fixture.app.post(
                TEAM_B, BookingApp.createBody(POOL, 7, second, second.plus(Duration.ofHours(1)), "team-b"));
        assertThat(taken.statusCode()).as(taken.body()).isEqualTo(201);
        browser.signIn(fixture.app.server.getURI(), TEAM_A);

        browser.driver.findElement(By.id("book-button")).click();
        browser.wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("booking-dialog")));
        new Select(browser.driver.findElement(By.id("dlg-pool"))).selectByValue(POOL);
        set("dlg-quantity", "2");
        set("dlg-date", day.toString());
        set("dlg-start", "06:00");
        set("dlg-end", "07:00");
        set("dlg-purpose", "weekly training");
        String weekday = day.getDayOfWeek().getDisplayName(TextStyle.SHORT, Locale.ENGLISH);
        WebElement box = browser.driver.findElement(
                By.xpath("//fieldset[@id='dlg-repeat']//label[normalize-space()='" + weekday + "']/input"));
        box.click();
        set("dlg-repeat-count", "3");
        browser.driver.findElement(By.id("dlg-submit")).click();

        browser.wait.until(d -> d.findElement(By.id("message")).getText().startsWith("Booked 2 of 3 occurrences")
                || !d.findElement(By.id("dlg-error")).getText().isEmpty());
        assertThat(browser.driver.findElement(By.id("dlg-error")).getText()).isEmpty();
        assertThat(browser.driver.findElement(By.id("message")).getText())
                .contains("not booked")
                .contains("only");
        List<WebElement> occurrences = seriesRows();
        assertThat(occurrences).hasSize(2).allSatisfy(r -> assertThat(r.getText())
                .contains("series", "CONFIRMED"));
        browser.js("arguments[0].scrollIntoView({block: 'center'});", occurrences.getFirst());
        browser.screenshot("dashboard-series");

        String earliest = occurrences.stream()
                .map(r -> r.getDomAttribute("data-id"))
                .map(id -> BookingApp.read(
                        fixture.app.get("/api/v1/bookings/" + id, TEAM_A).body()))
                .filter(b -> b.get("start").equals(first.toString()))
                .map(b -> (String) b.get("id"))
                .findFirst()
                .orElseThrow();
        WebElement cancelRest = browser.driver.findElement(
                By.cssSelector("#bookings tbody tr[data-id='" + earliest + "'] button.cancel-series"));
        assertThat(cancelRest.getDomAttribute("aria-label")).startsWith("Cancel the series from");
        cancelRest.click();
        browser.wait.until(d -> d.findElement(By.id("message")).getText().startsWith("Cancelled 2 occurrences"));
        assertThat(seriesRows()).hasSize(2).allSatisfy(r -> {
            assertThat(r.getDomAttribute("data-state")).isEqualTo("CANCELLED");
            assertThat(r.findElements(By.tagName("button"))).isEmpty();
        });
        assertThat(browser.consoleErrors()).isEmpty();
    }

    /** The rows of "My bookings" marked as occurrences of a series. */
    private List<WebElement> seriesRows() {
        return browser.driver.findElements(By.cssSelector("#bookings tbody tr")).stream()
                .filter(r -> !r.findElements(By.cssSelector(".series-mark")).isEmpty())
                .toList();
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
