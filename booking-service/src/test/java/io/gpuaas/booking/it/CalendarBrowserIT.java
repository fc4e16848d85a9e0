package io.gpuaas.booking.it;

import static io.gpuaas.booking.it.BookingApp.TEAM_A;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.testing.browser.ChromiumExtension;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/** Headless Debian Chromium loads the calendar, books, sees the booking and cancels it; books now and ends it. */
@ExtendWith({KafkaBrokerExtension.class, ChromiumExtension.class})
class CalendarBrowserIT {

    private static BookingApp app;
    private static WebDriver browser;

    /** One browser for the class (the extension quits it after the last test). */
    @BeforeAll
    static void start(KafkaBroker broker, WebDriver chromium) {
        app = BookingApp.shared(broker);
        browser = chromium;
    }

    @Test
    void shouldBookSeeAndCancelWhenATenantUsesTheCalendar() {
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));
        browser.get(app.server.getURI() + "/");
        browser.findElement(By.id("token")).sendKeys(TEAM_A);
        browser.findElement(By.id("save-token")).click();
        wait.until(d -> d.findElements(By.cssSelector("#grid td")).size() >= 24);
        assertThat(browser.findElement(By.id("whoami")).getText()).contains("team-a");

        LocalDateTime slot = LocalDateTime.ofInstant(Instant.now().plus(Duration.ofDays(6)), ZoneId.systemDefault())
                .truncatedTo(ChronoUnit.HOURS)
                .withHour(10);
        new org.openqa.selenium.support.ui.Select(browser.findElement(By.id("pool"))).selectByValue("h200-mig-1g.18gb");
        browser.findElement(By.id("book-button")).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("booking-dialog")));
        new org.openqa.selenium.support.ui.Select(browser.findElement(By.id("dlg-pool")))
                .selectByValue("h200-mig-1g.18gb");
        set("dlg-quantity", "3");
        set("dlg-date", slot.format(DateTimeFormatter.ISO_LOCAL_DATE));
        set("dlg-start", "10:00");
        set("dlg-end", "12:00");
        set("dlg-purpose", "browser test");
        List<String> before = browser.findElements(By.cssSelector("#bookings tbody tr")).stream()
                .map(r -> r.getAttribute("data-id"))
                .toList();
        browser.findElement(By.id("dlg-submit")).click();

        wait.until(d -> d.findElement(By.id("message")).getText().startsWith("Booked")
                || !d.findElement(By.id("dlg-error")).getText().isEmpty());
        assertThat(browser.findElement(By.id("dlg-error")).getText()).isEmpty();
        assertThat(browser.findElement(By.id("message")).getText()).startsWith("Booked 3 × h200-mig-1g.18gb");
        WebElement row =
                wait.until(d -> d.findElements(By.cssSelector("#bookings tbody tr[data-state='CONFIRMED']")).stream()
                        .filter(r -> !before.contains(r.getAttribute("data-id")))
                        .findFirst()
                        .orElse(null));
        String bookingId = row.getAttribute("data-id");
        assertThat(row.getText()).contains("team-a", "CONFIRMED");

        row.findElement(By.cssSelector("button.cancel")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("message"), "Cancelled"));
        List<WebElement> after =
                browser.findElements(By.cssSelector("#bookings tbody tr[data-id='" + bookingId + "']"));
        assertThat(after).singleElement().satisfies(r -> assertThat(r.getAttribute("data-state"))
                .isEqualTo("CANCELLED"));
    }

    @Test
    void shouldBookNowAndEndItWhenATenantUsesTheCalendar() {
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));
        browser.get(app.server.getURI() + "/");
        browser.findElement(By.id("token")).sendKeys(TEAM_A);
        browser.findElement(By.id("save-token")).click();
        wait.until(d -> d.findElements(By.cssSelector("#grid td")).size() >= 24);
        // Every view drawn (the bookings table too), so the bookings listed before are all known.
        wait.until(d -> "true".equals(d.findElement(By.tagName("body")).getDomAttribute("data-drawn")));
        List<String> before = browser.findElements(By.cssSelector("#bookings tbody tr")).stream()
                .map(r -> r.getAttribute("data-id"))
                .toList();

        browser.findElement(By.id("book-now-button")).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("dlg-duration")));
        assertThat(browser.findElement(By.id("dlg-date")).isDisplayed()).isFalse();
        new org.openqa.selenium.support.ui.Select(browser.findElement(By.id("dlg-pool")))
                .selectByValue("h200-mig-3g.71gb");
        set("dlg-quantity", "2");
        new org.openqa.selenium.support.ui.Select(browser.findElement(By.id("dlg-duration"))).selectByValue("PT30M");
        browser.findElement(By.id("dlg-submit")).click();

        wait.until(d -> d.findElement(By.id("message")).getText().startsWith("Booked")
                || !d.findElement(By.id("dlg-error")).getText().isEmpty());
        assertThat(browser.findElement(By.id("dlg-error")).getText()).isEmpty();
        WebElement row =
                wait.until(d -> d.findElements(By.cssSelector("#bookings tbody tr[data-state='ACTIVE']")).stream()
                        .filter(r -> !before.contains(r.getAttribute("data-id")))
                        .findFirst()
                        .orElse(null));
        String bookingId = row.getAttribute("data-id");
        assertThat(row.getText()).contains("h200-mig-3g.71gb", "ACTIVE");

        row.findElement(By.cssSelector("button.end")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("message"), "Ended 2"));
        assertThat(browser.findElements(By.cssSelector("#bookings tbody tr[data-id='" + bookingId + "']")))
                .singleElement()
                .satisfies(r -> {
                    assertThat(r.getAttribute("data-state")).isEqualTo("RELEASED");
                    assertThat(r.findElements(By.tagName("button"))).isEmpty();
                });
    }

    /** Sets an input's value the way a user would end up with it, including date and time inputs. */
    private static void set(String id, String value) {
        ((JavascriptExecutor) browser)
                .executeScript(
                        "const e = document.getElementById(arguments[0]); e.value = arguments[1];"
                                + "e.dispatchEvent(new Event('input')); e.dispatchEvent(new Event('change'));",
                        id,
                        value);
    }
}
