package io.gpuaas.bench.dashboard;

import io.gpuaas.testing.browser.HeadlessChromium;
import java.net.URI;
import java.time.Duration;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard in test-support's headless Chromium (Debian's binary and driver, never a download), signed in once by
 * pasting the token as a user does; the token stays in the tab's sessionStorage, so each reload is a signed-in page.
 */
final class OverviewPage implements AutoCloseable {

    private static final String DRAWN = "const m = performance.getEntriesByName('overview-drawn');"
            + " return m.length === 0 ? null : m[m.length - 1].duration;";

    private final WebDriver driver;
    private final WebDriverWait wait;

    private OverviewPage(WebDriver driver) {
        this.driver = driver;
        this.wait = new WebDriverWait(driver, Duration.ofSeconds(60));
        // A refresh redraws the tables: an element found just before the redraw is gone, look again.
        wait.ignoring(StaleElementReferenceException.class);
    }

    static OverviewPage open(URI server, String token) {
        OverviewPage page = new OverviewPage(HeadlessChromium.start());
        page.driver.get(server + "/");
        page.driver.findElement(By.id("token")).sendKeys(token);
        page.driver.findElement(By.id("save-token")).click();
        page.awaitDrawn();
        return page;
    }

    /** Reloads the page and returns its {@code overview-drawn} measure, in milliseconds from navigation start. */
    double reloadAndMeasure() {
        driver.navigate().refresh();
        awaitDrawn();
        Object drawn = wait.until(d -> ((JavascriptExecutor) d).executeScript(DRAWN));
        return ((Number) drawn).doubleValue();
    }

    private void awaitDrawn() {
        wait.until(d -> "true".equals(d.findElement(By.tagName("body")).getDomAttribute("data-drawn"))
                && !d.findElements(By.cssSelector("#heatmap tbody tr")).isEmpty());
    }

    @Override
    public void close() {
        driver.quit();
    }
}
