package io.gpuaas.testing.browser;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;

/**
 * The lifecycle of a browser test, written once: {@code @ExtendWith(ChromiumExtension.class)} on a class (or on one
 * test method) and a {@link WebDriver} (or {@link ChromeDriver}) parameter where a browser is wanted.
 *
 * <ul>
 *   <li>Without Chromium and chromedriver ({@link HeadlessChromium#available()}) the tests are skipped, before any
 *       {@code @BeforeAll} starts a fixture; with {@code CI} set in the environment they fail instead, so a CI image
 *       that lost its browser is noticed rather than silently running fewer tests.
 *   <li>A parameter of a test or {@code @BeforeEach} method is a fresh browser for that test; one of a
 *       {@code @BeforeAll} method is one browser for the class. Each is quit when its scope ends, and records its
 *       console and network events ({@link HeadlessChromium#recording}).
 *   <li>When a test fails, every browser it used leaves a screenshot and its console under
 *       {@code target/browser-failures/}.
 * </ul>
 */
public final class ChromiumExtension
        implements BeforeAllCallback, BeforeEachCallback, ParameterResolver, AfterEachCallback {

    /** Where a failed test's screenshots and consoles go, relative to the module being tested. */
    public static final Path FAILURES = Path.of("target", "browser-failures");

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(ChromiumExtension.class);

    @Override
    public void beforeAll(ExtensionContext context) {
        requireChromium();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        requireChromium();
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == WebDriver.class || type == ChromeDriver.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        requireChromium();
        // Keyed by the context itself: a store also answers with its parents' values, and a test's browser must not
        // join the class's list (it would outlive the test).
        Browsers browsers = context.getStore(NAMESPACE)
                .getOrComputeIfAbsent(context.getUniqueId(), k -> new Browsers(), Browsers.class);
        ChromeDriver browser = HeadlessChromium.start(HeadlessChromium.recording(HeadlessChromium.options()));
        browsers.started.add(browser);
        return browser;
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (context.getExecutionException().isEmpty()) {
            return;
        }
        List<ChromeDriver> used = new ArrayList<>(browsers(context));
        context.getParent().ifPresent(parent -> used.addAll(browsers(parent)));
        String name = context.getRequiredTestClass().getSimpleName() + "."
                + context.getRequiredTestMethod().getName();
        for (int i = 0; i < used.size(); i++) {
            keepEvidence(used.get(i), used.size() == 1 ? name : name + "-" + (i + 1));
        }
    }

    /** Saves what the page looked like and what it logged; never fails the test a second time. */
    static void keepEvidence(ChromeDriver browser, String name) {
        try {
            Files.createDirectories(FAILURES);
            Path png = FAILURES.resolve(name + ".png");
            Files.write(png, browser.getScreenshotAs(OutputType.BYTES));
            List<String> console = browser.manage().logs().get(LogType.BROWSER).getAll().stream()
                    .map(LogEntry::toString)
                    .toList();
            Path log = Files.write(FAILURES.resolve(name + ".console.txt"), console);
            System.err.printf("browser test failed at %s: screenshot %s, console %s%n", currentUrl(browser), png, log);
        } catch (IOException e) {
            System.err.println("browser test failed; its screenshot and console could not be saved: " + e);
        } catch (RuntimeException e) {
            System.err.println("browser test failed; the browser gave no screenshot or console: " + e);
        }
    }

    private static String currentUrl(WebDriver browser) {
        return Optional.ofNullable(browser.getCurrentUrl()).orElse("no page");
    }

    private static List<ChromeDriver> browsers(ExtensionContext context) {
        Browsers browsers = context.getStore(NAMESPACE).get(context.getUniqueId(), Browsers.class);
        return browsers == null ? List.of() : browsers.started;
    }

    private static void requireChromium() {
        if (HeadlessChromium.available()) {
            return;
        }
        if (onCi()) {
            throw new IllegalStateException(HeadlessChromium.NOT_INSTALLED + "; CI is set, so this fails, not skips");
        }
        Assumptions.abort(HeadlessChromium.NOT_INSTALLED);
    }

    private static boolean onCi() {
        String ci = System.getenv("CI");
        return ci != null && !ci.isBlank() && !"false".equalsIgnoreCase(ci);
    }

    /** The browsers started in one scope (a test, or a class); quit when the scope ends. */
    static final class Browsers implements AutoCloseable {
        final List<ChromeDriver> started = new ArrayList<>();

        @Override
        public void close() {
            RuntimeException failed = null;
            for (ChromeDriver browser : started) {
                try {
                    browser.quit();
                } catch (RuntimeException e) {
                    if (failed == null) {
                        failed = e;
                    } else {
                        failed.addSuppressed(e);
                    }
                }
            }
            if (failed != null) {
                throw failed;
            }
        }
    }
}
