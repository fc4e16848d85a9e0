package io.gpuaas.booking.it;

import io.gpuaas.testing.browser.ChromiumExtension;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * What every dashboard browser IT shares: the broker, a fresh headless Chromium per test (skipped where there is
 * none, a screenshot and the console kept when a test fails), and after each test the check that every request the
 * page made stayed on this machine. Each subclass starts its own fixture in a {@code @BeforeAll}.
 */
@ExtendWith({KafkaBrokerExtension.class, ChromiumExtension.class})
abstract class DashboardIT {

    DashboardBrowser browser;

    @BeforeEach
    void openBrowser(ChromeDriver driver) {
        browser = new DashboardBrowser(driver);
    }

    /** Every test: no request to anything but this machine (each test checks its own console). */
    @AfterEach
    void checkRequestsStayedLocal() {
        browser.checkRequestsStayedLocal();
    }
}
