package io.gpuaas.testing.browser;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.logging.Level;
import java.util.stream.Stream;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * Headless Chromium driven by Selenium through chromedriver. Both executables are found here and given to Selenium
 * explicitly, so Selenium Manager never runs and no browser or driver is ever downloaded: a machine without them
 * skips the browser tests (see {@link ChromiumExtension}) instead of reaching for the network.
 *
 * <p>Where: {@code $CHROMIUM_BINARY} and {@code $CHROMEDRIVER} when set, else {@code chromium} (or
 * {@code chromium-browser}, {@code google-chrome}) and {@code chromedriver} on the {@code PATH}; Debian's packages
 * {@code chromium} and {@code chromium-driver} put them in {@code /usr/bin}.
 *
 * <p>Selenium is an optional dependency of test-support: a module that calls this class declares
 * {@code org.seleniumhq.selenium:selenium-java} (test scope) itself.
 */
public final class HeadlessChromium {

    /** The environment variable naming the browser executable, ahead of the {@code PATH}. */
    public static final String BINARY_VARIABLE = "CHROMIUM_BINARY";
    /** The environment variable naming chromedriver, ahead of the {@code PATH}. */
    public static final String DRIVER_VARIABLE = "CHROMEDRIVER";
    /** Why a browser test is skipped (or, on CI, fails) where the executables are missing. */
    public static final String NOT_INSTALLED = "Chromium and chromedriver not found ($" + BINARY_VARIABLE + " and $"
            + DRIVER_VARIABLE + ", or chromium and chromedriver on the PATH; "
            + "apt-get install -y chromium chromium-driver, as .ci/run does)";
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

    private static final List<String> BINARY_NAMES = List.of("chromium", "chromium-browser", "google-chrome");
    private static final List<String> DRIVER_NAMES = List.of("chromedriver");

    private HeadlessChromium() {}

    /** Whether both executables are found; tests are skipped, not failed, when they are not (outside CI). */
    public static boolean available() {
        return binary().isPresent() && driver().isPresent();
    }

    /** The browser executable: {@code $CHROMIUM_BINARY}, else the first Chromium on the {@code PATH}. */
    public static Optional<Path> binary() {
        return find(BINARY_VARIABLE, BINARY_NAMES);
    }

    /** chromedriver: {@code $CHROMEDRIVER}, else the one on the {@code PATH}. */
    public static Optional<Path> driver() {
        return find(DRIVER_VARIABLE, DRIVER_NAMES);
    }

    /** The options every browser starts with: the binary found and {@link #ARGUMENTS}. Add to them as needed. */
    public static ChromeOptions options() {
        ChromeOptions options = new ChromeOptions();
        options.setBinary(binary().orElseThrow(() -> new IllegalStateException(NOT_INSTALLED))
                .toFile());
        options.addArguments(ARGUMENTS);
        return options;
    }

    /**
     * {@code options} with the browser console and Chrome's network events recorded, read through
     * {@code driver.manage().logs()} ({@link LogType#BROWSER}, {@link LogType#PERFORMANCE}): what a test checks and
     * keeps when it fails. Not for a benchmark, which should not pay for the recording.
     */
    public static ChromeOptions recording(ChromeOptions options) {
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        logs.enable(LogType.PERFORMANCE, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        return options;
    }

    /** Starts a browser with {@link #options()}; the caller {@code quit()}s it. */
    public static ChromeDriver start() {
        return start(options());
    }

    /**
     * Starts a browser under its own chromedriver on a free port; the caller {@code quit()}s it.
     *
     * @throws IllegalStateException when Chromium or chromedriver is missing (check {@link #available()} first)
     */
    public static ChromeDriver start(ChromeOptions options) {
        Path driver = driver().orElseThrow(() -> new IllegalStateException(NOT_INSTALLED));
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(driver.toFile())
                .usingAnyFreePort()
                .build();
        return new ChromeDriver(service, options);
    }

    private static Optional<Path> find(String variable, List<String> names) {
        String named = System.getenv(variable);
        if (named != null && !named.isBlank()) {
            return Optional.of(Path.of(named)).filter(Files::isExecutable);
        }
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        return names.stream()
                .flatMap(name -> Stream.of(path.split(File.pathSeparator))
                        .filter(dir -> !dir.isBlank())
                        .map(dir -> Path.of(dir, name)))
                .filter(Files::isExecutable)
                .findFirst();
    }
}
