package io.gpuaas.testing.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;

class HeadlessChromiumIT {

    @Test
    void shouldRenderAPageAndRunItsScriptWhenChromiumIsInstalled() {
        assumeTrue(HeadlessChromium.available(), HeadlessChromium.NOT_INSTALLED);
        String page = "<title>calendar</title><p id='out'></p>"
                + "<script>document.getElementById('out').textContent = 'width ' + window.innerWidth;</script>";
        WebDriver browser = HeadlessChromium.start();
        try {
            browser.get("data:text/html;charset=utf-8,"
                    + URLEncoder.encode(page, StandardCharsets.UTF_8).replace("+", "%20"));

            assertThat(browser.getTitle()).isEqualTo("calendar");
            assertThat(browser.findElement(By.id("out")).getText())
                    .startsWith("width ")
                    .doesNotContain("width 0");
        } finally {
            browser.quit();
        }
    }
}
