package io.gpuaas.booking.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpuaas.events.Json;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Level;
import java.util.zip.GZIPOutputStream;
import javax.imageio.ImageIO;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard in a browser that test-support's {@code ChromiumExtension} started (it records the browser console
 * and the network log, and quits the browser after the test), so a test can check that the page logged no error and
 * asked nothing of another host.
 */
final class DashboardBrowser {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    final ChromeDriver driver;
    final WebDriverWait wait;

    DashboardBrowser(ChromeDriver driver) {
        this.driver = driver;
        wait = new WebDriverWait(driver, Duration.ofSeconds(30));
        // A refresh redraws the tables: an element found just before the redraw is gone, look again.
        wait.ignoring(StaleElementReferenceException.class);
    }

    /** Opens the page, pastes the token and waits until the overview is drawn. */
    void signIn(URI server, String token) {
        driver.get(server + "/");
        driver.findElement(By.id("token")).sendKeys(token);
        driver.findElement(By.id("save-token")).click();
        awaitDrawn();
    }

    void awaitDrawn() {
        wait.until(d -> "true".equals(d.findElement(By.tagName("body")).getDomAttribute("data-drawn"))
                && !d.findElements(By.cssSelector("#heatmap tbody tr")).isEmpty());
    }

    /** Lets the page save downloads, into a fresh directory under target/ that the test then reads. */
    Path allowDownloads(String name) {
        try {
            Path dir = Path.of("target", "downloads", name).toAbsolutePath();
            Files.createDirectories(dir);
            try (var old = Files.list(dir)) {
                for (Path file : old.toList()) {
                    Files.delete(file);
                }
            }
            driver.executeCdpCommand(
                    "Browser.setDownloadBehavior",
                    Map.of("behavior", "allow", "downloadPath", dir.toString(), "eventsEnabled", false));
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Object js(String script, Object... args) {
        return ((JavascriptExecutor) driver).executeScript(script, args);
    }

    /** Saves a screenshot under target/ and checks it is a picture of something: many colours, not one. */
    void screenshot(String name) {
        byte[] png = ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES);
        try {
            Path file = Path.of("target", "screenshots", name + ".png");
            Files.createDirectories(file.getParent());
            Files.write(file, png);
            BufferedImage image = ImageIO.read(new ByteArrayInputStream(png));
            Set<Integer> colours = new HashSet<>();
            for (int x = 0; x < image.getWidth(); x += 7) {
                for (int y = 0; y < image.getHeight(); y += 7) {
                    colours.add(image.getRGB(x, y));
                }
            }
            assertThat(colours).as("distinct colours in %s", file).hasSizeGreaterThan(8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Console errors since the last call, but those naming an HTTP status the test expected the API to answer. */
    List<String> consoleErrors(String... expectedStatuses) {
        return driver.manage().logs().get(LogType.BROWSER).getAll().stream()
                .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue())
                .map(LogEntry::getMessage)
                .filter(m -> List.of(expectedStatuses).stream().noneMatch(s -> m.contains("status of " + s)))
                .toList();
    }

    /**
     * Checks that the page asked for something and that every request stayed on this machine (no CDN, no outside
     * host): what each dashboard IT checks after each test.
     */
    void checkRequestsStayedLocal() {
        assertThat(requests()).isNotEmpty().allSatisfy(DashboardOverviewIT::staysOnThisMachine);
    }

    /** Every URL the page asked for since the last call (Chrome's Network.requestWillBeSent). */
    List<URI> requests() {
        return driver.manage().logs().get(LogType.PERFORMANCE).getAll().stream()
                .map(e -> readTree(e.getMessage()).path("message"))
                .filter(m -> "Network.requestWillBeSent".equals(m.path("method").asText()))
                .map(m ->
                        URI.create(m.path("params").path("request").path("url").asText()))
                .toList();
    }

    /** The JavaScript files the page loaded, gzip-compressed, in bytes. */
    long gzippedScriptBytes() {
        @SuppressWarnings("unchecked")
        List<String> scripts = (List<String>) js("return performance.getEntriesByType('resource')"
                + ".map(e => e.name).filter(n => n.split('?')[0].endsWith('.js'));");
        assertThat(scripts).isNotEmpty();
        long total = 0;
        for (String url : scripts) {
            try {
                byte[] body = HTTP.send(
                                HttpRequest.newBuilder(URI.create(url)).build(),
                                HttpResponse.BodyHandlers.ofByteArray())
                        .body();
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
                    gzip.write(body);
                }
                total += out.size();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        return total;
    }

    private static JsonNode readTree(String json) {
        try {
            return Json.mapper().readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
