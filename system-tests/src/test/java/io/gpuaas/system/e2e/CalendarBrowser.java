package io.gpuaas.system.e2e;

import io.gpuaas.testing.browser.HeadlessChromium;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * booking-service's web calendar in Debian's headless Chromium, driven by Selenium through Debian's chromedriver
 * (test-support's {@link HeadlessChromium}: both paths given explicitly, so no driver is downloaded).
 */
final class CalendarBrowser implements AutoCloseable {

    /**
     * One row of "My bookings".
     *
     * @param id    booking id ({@code data-id})
     * @param state lifecycle state ({@code data-state})
     * @param cells the cells' text: pool, units, start, end, namespace, state
     */
    record BookingRow(String id, String state, List<String> cells) {}

    private final WebDriver browser;
    private final WebDriverWait wait;

    CalendarBrowser() {
        browser = HeadlessChromium.start();
        wait = new WebDriverWait(browser, Duration.ofSeconds(45));
    }

    static boolean available() {
        return HeadlessChromium.available();
    }

    /** Opens the calendar, signs in with a pasted token and shows {@code pool}'s availability. */
    void open(String bookingServiceUrl, String token, String pool) {
        browser.get(bookingServiceUrl + "/");
        browser.findElement(By.id("token")).sendKeys(token);
        browser.findElement(By.id("save-token")).click();
        wait.until(d -> d.findElements(By.cssSelector("#grid td")).size() >= 24
                && !d.findElements(By.cssSelector("#pool option[value='" + pool + "']"))
                        .isEmpty());
        new Select(browser.findElement(By.id("pool"))).selectByValue(pool);
        wait.until(d -> d.findElements(By.cssSelector("#grid td[data-start]")).size() >= 24);
    }

    String whoami() {
        return browser.findElement(By.id("whoami")).getText();
    }

    /** Waits for the booking's row in "My bookings" and reads it. */
    BookingRow bookingRow(String id) {
        WebElement row =
                wait.until(d -> d.findElements(By.cssSelector("#bookings tbody tr[data-id='" + id + "']")).stream()
                        .findFirst()
                        .orElse(null));
        List<String> cells = row.findElements(By.tagName("td")).stream()
                .map(WebElement::getText)
                .toList();
        return new BookingRow(row.getDomAttribute("data-id"), row.getDomAttribute("data-state"), cells);
    }

    /** The text ("free/capacity") of the availability cell of the hour starting at {@code hourStart}. */
    Optional<String> freeUnitsAt(Instant hourStart) {
        return browser.findElements(By.cssSelector("#grid td[data-start]")).stream()
                .filter(c -> Instant.parse(c.getDomAttribute("data-start")).equals(hourStart))
                .map(WebElement::getText)
                .findFirst();
    }

    @Override
    public void close() {
        browser.quit();
    }
}
