package io.gpuaas.testing.browser;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's headless Chromium driven by Selenium through Debian's chromedriver. Both paths are given explicitly, so
 * Selenium Manager never runs and no browser or driver is ever downloaded: a machine without the packages skips
 * the browser tests (check {@link #available()} in a JUnit assumption) instead of reaching for the network.
 *
 * <p>Selenium is an optional dependency of test-support: a module that calls this class declares
 * {@code org.seleniumhq.selenium:selenium-java} (test scope) itself.
 */
public final class HeadlessChromium {

    /** Debian package {@code chromium}. */
    public static final Path BINARY = Path.of("/usr/bin/chromium");
    /** Debian package {@code chromium-driver}. */
    public static final Path DRIVER = Path.of("/usr/bin/chromedriver");
    /** The message for the assumption that skips a browser test where the packages are missing. */
    public static final String NOT_INSTALLED = "Debian chromium and chromium-driver are not installed "
            + "(apt-get install -y chromium chromium-driver; .ci/run installs them)";
    /**
     * No sandbox because CI runs as root in a container; no GPU and no background networking (component updates,
     * safe-browsing lists) because a test browser needs neither; /tmp instead of a small /dev/shm; a window wide
     * enough for the calendar's week grid.
     */
    public static final List<String> ARGUMENTS = List.of(
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-dev-shm-usage",
            "--window-size=1400,1000");

    private HeadlessChromium() {}

    /** Whether both executables are installed; tests are skipped, not failed, when they are not. */
    public static boolean available() {
        return Files.isExecutable(BINARY) && Files.isExecutable(DRIVER);
    }

    /**
     * Starts a browser under its own chromedriver on a free port; the caller {@code quit()}s it.
     *
     * @throws IllegalStateException when Chromium or chromedriver is missing (assume {@link #available()} first)
     */
    public static WebDriver start() {
        if (!available()) {
            throw new IllegalStateException(NOT_INSTALLED);
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(BINARY.toFile());
        options.addArguments(ARGUMENTS);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(DRIVER.toFile())
                .usingAnyFreePort()
                .build();
        return new ChromeDriver(service, options);
    }
}
