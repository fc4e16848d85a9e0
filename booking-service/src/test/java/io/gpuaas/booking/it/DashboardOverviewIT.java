package io.gpuaas.booking.it;

import static io.gpuaas.booking.it.BookingApp.TEAM_A;
import static io.gpuaas.booking.it.BookingApp.TEAM_B;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.testing.kafka.KafkaBroker;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;

/** The overview of the dashboard in headless Chromium: every pool at a glance, picking a window, booking it. */
class DashboardOverviewIT extends DashboardIT {

    private static final List<String> POOLS =
            List.of("h200", "h200-mig-1g.18gb", "h200-mig-2g.35gb", "h200-mig-3g.71gb");

    private static DashboardFixture fixture;

    @BeforeAll
    static void start(KafkaBroker broker) {
        fixture = DashboardFixture.shared(broker);
    }

    @Test
    void shouldShowEveryPoolAndUpdateWhenABookingIsMade() throws Exception {
        browser.signIn(fixture.app.server.getURI(), TEAM_A);
        assertThat(browser.driver.findElements(By.cssSelector("#heatmap tbody tr")))
                .extracting(r -> r.getDomAttribute("data-pool"))
                .containsExactlyElementsOf(POOLS);
        WebElement cell = cell("h200-mig-2g.35gb", 30);
        assertThat(cell.getText()).isEqualTo("9");
        assertThat(cell.getDomAttribute("aria-label")).startsWith("h200-mig-2g.35gb: 9 of 9 free");

        Instant start = Instant.parse(cell.getDomAttribute("data-start"));
        var created = fixture.app.post(
                TEAM_B, BookingApp.createBody("h200-mig-2g.35gb", 4, start, start.plus(Duration.ofHours(1)), "team-b"));
        assertThat(created.statusCode()).isEqualTo(201);
        browser.driver.findElement(By.id("refresh")).click();
        browser.wait.until(d -> cell("h200-mig-2g.35gb", 30).getText().equals("5"));
        browser.screenshot("dashboard-overview");

        // The time until the overview is drawn, measured in the browser from navigation start of a signed-in page.
        browser.driver.navigate().refresh();
        browser.awaitDrawn();
        Object drawn = browser.js("return performance.getEntriesByName('overview-drawn')[0].duration;");
        System.out.printf("dashboard: overview drawn %.0f ms after navigation start%n", ((Number) drawn).doubleValue());
        long js = browser.gzippedScriptBytes();
        System.out.printf("dashboard: JavaScript loaded, gzip-compressed: %d bytes%n", js);
        assertThat(js).isLessThan(300 * 1024);
        assertThat(browser.consoleErrors()).isEmpty();
    }

    @Test
    void shouldBookThePickedWindowWhenATenantDragsAcrossHours() {
        browser.signIn(fixture.app.server.getURI(), TEAM_A);
        WebElement from = cell("h200-mig-1g.18gb", 40);
        WebElement to = cell("h200-mig-1g.18gb", 42);
        new Actions(browser.driver)
                .clickAndHold(from)
                .moveToElement(cell("h200-mig-1g.18gb", 41))
                .moveToElement(to)
                .release()
                .perform();
        assertThat(browser.driver.findElements(By.cssSelector("#heatmap td.sel")))
                .hasSize(3);
        assertThat(browser.driver.findElement(By.id("selection")).getText()).contains("h200-mig-1g.18gb", "(3 h)");
        setValue("hm-quantity", "2");
        browser.driver.findElement(By.id("book-window")).click();

        browser.wait.until(d -> d.findElement(By.id("message")).getText().startsWith("Booked 2 × h200-mig-1g.18gb"));
        browser.wait.until(d -> cell("h200-mig-1g.18gb", 41).getText().equals("12"));
        String start = cell("h200-mig-1g.18gb", 40).getDomAttribute("data-start");
        browser.wait.until(d -> bookingsOf("h200-mig-1g.18gb").stream()
                .anyMatch(r -> r.getText().contains("CONFIRMED") && r.getText().contains("upcoming")));
        assertThat(fixture.app.get("/api/v1/bookings?limit=200", TEAM_A).body()).contains(start);
        browser.screenshot("dashboard-drag-book");
        assertThat(browser.consoleErrors()).isEmpty();
    }

    @Test
    void shouldBookNowAndOfferTheEarliestStartWhenThePoolIsFull() {
        // team-b holds all of h200 for the next two hours: team-a's book now does not fit.
        var full = fixture.app.post(
                TEAM_B,
                BookingApp.json(Map.of("pool", "h200", "quantity", 8, "duration", "PT2H", "namespace", "team-b")));
        assertThat(full.statusCode()).isEqualTo(201);
        String fullEnd = String.valueOf(BookingApp.read(full.body()).get("end"));
        browser.signIn(fixture.app.server.getURI(), TEAM_A);
        assertThat(cell("h200", 0).getText()).isEqualTo("0");

        browser.js("document.getElementById('hm-duration').value = 'PT1H';");
        browser.driver.findElement(By.id("hm-book-now")).click();
        WebElement offer = browser.wait.until(
                d -> d.findElements(By.id("book-earliest")).stream().findFirst().orElse(null));
        assertThat(offer.getText()).startsWith("Book 1 × h200 from");
        offer.click();
        browser.wait.until(d -> d.findElement(By.id("message")).getText().startsWith("Booked 1 × h200"));
        assertThat(fixture.app.get("/api/v1/bookings?limit=200", TEAM_A).body()).contains(fullEnd);

        // And a book now that fits is ACTIVE at once.
        new org.openqa.selenium.support.ui.Select(browser.driver.findElement(By.id("hm-duration")))
                .selectByValue("PT30M");
        new Actions(browser.driver).click(cell("h200-mig-3g.71gb", 0)).perform();
        browser.driver.findElement(By.id("hm-book-now")).click();
        browser.wait.until(d -> d.findElement(By.id("message")).getText().startsWith("Booked 1 × h200-mig-3g.71gb"));
        browser.wait.until(d -> bookingsOf("h200-mig-3g.71gb").stream()
                .anyMatch(r -> r.getText().contains("ACTIVE") && r.getText().contains("left")));
        browser.screenshot("dashboard-earliest-start");
        assertThat(browser.consoleErrors("409")).isEmpty();
    }

    @Test
    void shouldBeUsableByKeyboardAndAtPhoneWidthWhenTheOverviewOpens() {
        browser.driver.manage().window().setSize(new Dimension(390, 844));
        browser.signIn(fixture.app.server.getURI(), TEAM_A);
        Object overflow = browser.js("return document.documentElement.scrollWidth - window.innerWidth;");
        Object wide = browser.js("return [...document.querySelectorAll('body *')]"
                + ".filter(e => e.getBoundingClientRect().right > window.innerWidth + 1 && !e.closest('.scroll'))"
                + ".map(e => e.tagName + '#' + e.id + '.' + e.className);");
        assertThat(((Number) overflow).intValue())
                .as("horizontal overflow of the page; too wide: %s", wide)
                .isLessThanOrEqualTo(0);

        browser.js("document.activeElement.blur(); window.scrollTo(0, 0);");
        WebElement focused = null;
        for (int i = 0; i < 40; i++) {
            browser.driver.switchTo().activeElement().sendKeys(Keys.TAB);
            focused = browser.driver.switchTo().activeElement();
            if ("td".equals(focused.getTagName())) {
                break;
            }
        }
        assertThat(focused.getTagName()).as("a heatmap cell is reached by Tab").isEqualTo("td");
        assertThat(focused.getDomAttribute("aria-label")).contains("free");
        assertThat(focused.getCssValue("outline-style")).as("visible focus").isNotEqualTo("none");
        focused.sendKeys(
                Keys.ARROW_DOWN, Keys.chord(Keys.SHIFT, Keys.ARROW_RIGHT), Keys.chord(Keys.SHIFT, Keys.ARROW_RIGHT));
        assertThat(browser.driver.findElements(By.cssSelector("#heatmap td.sel")))
                .hasSize(3)
                .allSatisfy(td -> assertThat(td.getDomAttribute("data-row")).isEqualTo("1"));
        browser.driver.switchTo().activeElement().sendKeys(Keys.chord(Keys.SHIFT, Keys.TAB));
        assertThat(browser.driver.findElement(By.id("book-window")).isEnabled()).isTrue();
        browser.screenshot("dashboard-phone");
        assertThat(browser.consoleErrors()).isEmpty();
    }

    @Test
    void shouldShowEveryTenantsReservedAndFreeUnitsWhenAnAdminOpensTheDashboard() {
        for (String[] hold : new String[][] {{TEAM_A, "team-a", "2"}, {TEAM_B, "team-b", "3"}}) {
            var res = fixture.app.post(
                    hold[0],
                    BookingApp.json(Map.of(
                            "pool",
                            "h200-mig-1g.18gb",
                            "quantity",
                            Integer.parseInt(hold[2]),
                            "duration",
                            "PT1H",
                            "namespace",
                            hold[1])));
            assertThat(res.statusCode()).as(res.body()).isEqualTo(201);
        }
        browser.signIn(fixture.app.server.getURI(), BookingApp.ADMIN);
        WebElement row = browser.wait.until(
                d -> d.findElements(By.cssSelector("#capacity tr[data-pool='h200-mig-1g.18gb']")).stream()
                        .findFirst()
                        .orElse(null));
        int reserved =
                Integer.parseInt(row.findElement(By.className("reserved")).getText());
        int free = Integer.parseInt(row.findElement(By.className("free")).getText());
        assertThat(reserved).isGreaterThanOrEqualTo(5);
        assertThat(reserved + free).isEqualTo(14);
        assertThat(row.findElement(By.className("tenants")).getText()).contains("team-a", "team-b");
        assertThat(browser.driver.findElements(By.cssSelector("#capacity tbody tr")))
                .hasSize(POOLS.size());
        browser.js("arguments[0].scrollIntoView({block: 'center'});", row);
        browser.screenshot("dashboard-admin");
        assertThat(browser.consoleErrors()).isEmpty();
    }

    /**
     * Loopback, a data: URL the browser makes itself (the date input's icon), or a blob: URL of the page's own origin
     * (the CSV download): nothing leaves the machine.
     */
    static void staysOnThisMachine(URI uri) {
        if ("blob".equals(uri.getScheme())) {
            staysOnThisMachine(URI.create(uri.getSchemeSpecificPart()));
        } else if (!"data".equals(uri.getScheme())) {
            assertThat(uri.getHost()).as("host of %s", uri).isIn("127.0.0.1", "localhost");
        }
    }

    private WebElement cell(String pool, int column) {
        return browser.driver.findElement(
                By.cssSelector("#heatmap tr[data-pool='" + pool + "'] td[data-col='" + column + "']"));
    }

    private List<WebElement> bookingsOf(String pool) {
        return browser.driver.findElements(By.cssSelector("#bookings tbody tr[data-id]")).stream()
                .filter(r -> r.getText().startsWith(pool + " "))
                .toList();
    }

    private void setValue(String id, String value) {
        browser.js(
                "const e = document.getElementById(arguments[0]); e.value = arguments[1];"
                        + "e.dispatchEvent(new Event('change'));",
                id,
                value);
    }
}
