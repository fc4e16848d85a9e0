package io.gpuaas.testing.browser;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;

@ExtendWith(ChromiumExtension.class)
class HeadlessChromiumIT {

    @Test
    void shouldRenderAPageAndRunItsScriptWhenChromiumIsInstalled(WebDriver browser) {
        browser.get(page("<title>calendar</title><p id='out'></p>"
                + "<script>document.getElementById('out').textContent = 'width ' + window.innerWidth;</script>"));

        assertThat(browser.getTitle()).isEqualTo("calendar");
        assertThat(browser.findElement(By.id("out")).getText())
                .startsWith("width ")
                .doesNotContain("width 0");
    }

    @Test
    void shouldKeepAScreenshotAndTheConsoleWhenABrowserTestFails(ChromeDriver browser) throws Exception {
        browser.get(page("<title>broken</title><h1>half drawn</h1>"
                + "<script>console.error('the overview could not be drawn');</script>"));

        ChromiumExtension.keepEvidence(browser, "HeadlessChromiumIT.evidence");

        Path png = ChromiumExtension.FAILURES.resolve("HeadlessChromiumIT.evidence.png");
        assertThat(ImageIO.read(png.toFile()).getWidth()).isPositive();
        assertThat(Files.readString(ChromiumExtension.FAILURES.resolve("HeadlessChromiumIT.evidence.console.txt")))
                .contains("SEVERE", "the overview could not be drawn");
    }

    private static String page(String html) {
        return "data:text/html;charset=utf-8,"
                + URLEncoder.encode(html, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
