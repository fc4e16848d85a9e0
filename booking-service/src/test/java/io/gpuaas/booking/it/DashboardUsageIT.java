package io.gpuaas.booking.it;

import static io.gpuaas.booking.it.BookingApp.ADMIN;
import static io.gpuaas.booking.it.BookingApp.TEAM_A;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import io.gpuaas.booking.it.FakeLedger.Call;
import io.gpuaas.testing.kafka.KafkaBroker;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

/** Usage in headless Chromium: the ledger's figures as chart and table, its CSV, live utilization, most idle. */
class DashboardUsageIT extends DashboardIT {

    private static final String YESTERDAY = FakeLedger.YESTERDAY.toString();

    private static DashboardFixture fixture;

    @BeforeAll
    static void start(KafkaBroker broker) {
        fixture = DashboardFixture.shared(broker);
    }

    @Test
    void shouldShowTheLedgersFiguresAndDownloadItsCsvWhenATenantOpensUsage() throws IOException {
        int before = FakeLedger.CALLS.size();
        Path downloads = browser.allowDownloads("usage-csv");
        browser.signIn(fixture.app.server.getURI(), TEAM_A);
        WebElement day = browser.wait.until(d -> d.findElements(By.cssSelector(dayRow(YESTERDAY))).stream()
                .filter(r -> r.findElement(By.className("booked")).getText().equals("9.50"))
                .findFirst()
                .orElse(null));
        assertThat(figures(day)).containsExactly("9.50", "7.00", "4.75", "2.25");
        assertThat(browser.driver.findElements(By.cssSelector("#usage-table tbody tr")))
                .hasSize(14);
        assertThat(browser.driver.findElements(By.cssSelector("#usage-chart svg rect")))
                .hasSize(14 * 4);
        String from = LocalDate.now(ZoneOffset.UTC).minusDays(13).toString();
        assertThat(FakeLedger.CALLS.subList(before, FakeLedger.CALLS.size()))
                .as("the page's read reached the ledger with the caller's own token")
                .contains(new Call(
                        "/api/v1/usage?from=" + from + "&to=" + FakeLedger.YESTERDAY.plusDays(2) + "&groupBy=day",
                        "Bearer " + TEAM_A,
                        "application/json"));

        new Select(browser.driver.findElement(By.id("usage-pool"))).selectByValue("h200");
        assertThat(figures(browser.driver.findElement(By.cssSelector(dayRow(YESTERDAY)))))
                .containsExactly("8.00", "6.00", "4.25", "1.75");

        browser.driver.findElement(By.id("usage-csv")).click();
        browser.wait.until(d -> d.findElement(By.id("message")).getText().startsWith("Downloaded the usage CSV"));
        Path csv = browser.wait.until(d -> finishedDownload(downloads).orElse(null));
        assertThat(Files.readAllBytes(csv)).isEqualTo(FakeLedger.dayCsv().getBytes(StandardCharsets.UTF_8));
        assertThat(FakeLedger.CALLS).anySatisfy(c -> {
            assertThat(c.accept()).isEqualTo("text/csv");
            assertThat(c.authorization()).isEqualTo("Bearer " + TEAM_A);
        });

        // The picture for README: overview, bookings and usage in one tall window.
        browser.driver.manage().window().setSize(new Dimension(1400, 1750));
        new Select(browser.driver.findElement(By.id("usage-pool"))).selectByValue("");
        browser.js("window.scrollTo(0, 0);");
        browser.screenshot("dashboard-usage");
        assertThat(browser.consoleErrors()).isEmpty();
    }

    @Test
    void shouldShowTheMonthsCostAndBudgetPerTenantAndLetAnAdminSetABudget() {
        int before = FakeLedger.CALLS.size();
        String month = LocalDate.now(ZoneOffset.UTC).toString().substring(0, 7);
        browser.signIn(fixture.app.server.getURI(), ADMIN);
        WebElement b = browser.wait.until(
                d -> d.findElements(By.cssSelector("#month-cost-table tr[data-tenant='team-b']")).stream()
                        .findFirst()
                        .orElse(null));
        assertThat(costCells(b))
                .containsExactly("2.00", "1.44", "0.50", "7.00", "5.03", "1.75", "20.0 %", "–", "–", "–", "–", "–");
        assertThat(costCells(browser.driver.findElement(By.cssSelector("#month-cost-table tr[data-tenant='team-a']")))
                        .subList(0, 7))
                .containsExactly("11.50", "5.75", "3.25", "40.25", "20.13", "11.38", "80.0 %");
        assertThat(browser.driver.findElement(By.id("month-cost-caption")).getText())
                .isEqualTo("Cost of " + month + " (EUR)");
        assertThat(FakeLedger.CALLS.subList(before, FakeLedger.CALLS.size()))
                .as("the page's read reached the ledger with the caller's own token")
                .contains(new Call("/api/v1/usage/fair-share?month=" + month, "Bearer " + ADMIN, "application/json"));

        // team-b's budget through the API, team-a's through the page's form; large enough not to refuse the bookings
        // of the other dashboard tests that share this app.
        var set = fixture.app.send(
                "PUT",
                "/api/v1/budgets/team-b/" + month,
                ADMIN,
                "{\"unit\": \"GPU_HOURS\", \"limit\": 20000}",
                Map.of());
        assertThat(set.statusCode()).as(set.body()).isEqualTo(202);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(fixture.app
                        .get("/api/v1/budgets/team-b/" + month, ADMIN)
                        .statusCode())
                .isEqualTo(200));
        WebElement form = browser.driver.findElement(By.id("budget-form"));
        assertThat(form.isDisplayed()).isTrue();
        browser.driver.findElement(By.id("budget-tenant")).sendKeys("team-a");
        new Select(browser.driver.findElement(By.id("budget-unit"))).selectByValue("GPU_HOURS");
        browser.driver.findElement(By.id("budget-limit")).sendKeys("80000");
        browser.driver.findElement(By.id("budget-set")).click();
        browser.wait.until(d -> d.findElement(By.id("message"))
                .getText()
                .equals("Budget of team-a for " + month + " set: 80000.00 GPU-h"));
        browser.wait.until(d -> budgetCells(d.findElement(By.cssSelector("#month-cost-table tr[data-tenant='team-b']")))
                .getFirst()
                .equals("20000.00 GPU-h"));
        List<String> a =
                budgetCells(browser.driver.findElement(By.cssSelector("#month-cost-table tr[data-tenant='team-a']")));
        Map<String, Object> aBudget = BookingApp.read(
                fixture.app.get("/api/v1/budgets/team-a/" + month, ADMIN).body());
        double booked = ((Number) aBudget.get("booked")).doubleValue();
        assertThat(a)
                .as("limit, booked, held, booked of the limit, share of the month's GPU-hour budgets")
                .containsExactly(
                        "80000.00 GPU-h",
                        String.format(Locale.ROOT, "%.2f", booked),
                        String.format(Locale.ROOT, "%.2f", ((Number) aBudget.get("held")).doubleValue()),
                        String.format(Locale.ROOT, "%.1f %%", booked / 80000 * 100),
                        "80.0 %");
        assertThat(budgetCells(browser.driver.findElement(By.cssSelector("#month-cost-table tr[data-tenant='team-b']")))
                        .getLast())
                .isEqualTo("20.0 %");

        // The API beside the page: JSON and CSV carry the same join.
        Map<String, Object> report = BookingApp.read(fixture.app
                .get("/api/v1/usage/fair-share?month=" + month, ADMIN)
                .body());
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> rows = (List<Map<String, Object>>) report.get("rows");
        assertThat(rows).anySatisfy(row -> {
            assertThat(row.get("tenant")).isEqualTo("team-b");
            assertThat(((Number) row.get("budgetShare")).doubleValue()).isEqualTo(0.2);
            @SuppressWarnings("unchecked")
            Map<String, Object> budget = (Map<String, Object>) row.get("budget");
            assertThat(budget).containsEntry("unit", "GPU_HOURS");
            assertThat(((Number) budget.get("limit")).doubleValue()).isEqualTo(20000.0);
        });
        var csv = fixture.app.send(
                "GET", "/api/v1/usage/fair-share?month=" + month, ADMIN, null, Map.of("Accept", "text/csv"));
        assertThat(csv.statusCode()).as(csv.body()).isEqualTo(200);
        assertThat(csv.body().split("\r\n")[0])
                .isEqualTo("tenant,month,booked,used,idle,booked_cost,used_cost,idle_cost,currency,used_share,"
                        + "budget,budget_share,budget_unit,budget_currency,budget_booked,budget_held");
        assertThat(csv.body())
                .contains("\r\nteam-b," + month + ",2.000000,1.437500,0.500000,7.000000,5.031250,1.750000,EUR,"
                        + "0.200000,20000.000000,0.200000,GPU_HOURS,,");
        assertThat(browser.consoleErrors()).isEmpty();

        browser.signIn(fixture.app.server.getURI(), TEAM_A);
        browser.wait.until(d ->
                d.findElements(By.cssSelector("#month-cost-table tbody tr")).size() == 1
                        && !d.findElements(By.cssSelector("#month-cost-table tr[data-tenant='team-a']"))
                                .isEmpty());
        assertThat(budgetCells(browser.driver.findElement(By.cssSelector("#month-cost-table tr[data-tenant='team-a']")))
                        .getLast())
                .as("a tenant sees its share of everyone's budgets")
                .isEqualTo("80.0 %");
        assertThat(browser.driver.findElement(By.id("budget-form")).isDisplayed())
                .as("only an admin sets budgets")
                .isFalse();
        assertThat(browser.consoleErrors()).isEmpty();

        costBudgetThroughTheForm(month);
    }

    /**
     * An admin turns team-a's budget of the month into a cost budget in the page's form: the row shows it in the
     * catalog's currency and what team-a's bookings cost against it (the same GPU-hours at the catalog's 3.50 USD),
     * and the shares are per unit (team-b's GPU-hour budget is now the only one of its kind).
     */
    private void costBudgetThroughTheForm(String month) {
        double before = figure(month, "booked");
        var booking = fixture.app.post(
                TEAM_A,
                BookingApp.json(
                        Map.of("pool", "h200-mig-1g.18gb", "quantity", 1, "duration", "PT15M", "namespace", "team-a")));
        assertThat(booking.statusCode()).as(booking.body()).isEqualTo(201);
        double[] gpuHours = new double[1];
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            gpuHours[0] = figure(month, "booked");
            assertThat(gpuHours[0]).as("the quarter just booked is counted").isGreaterThan(before);
        });
        browser.signIn(fixture.app.server.getURI(), ADMIN);
        browser.wait.until(d -> !d.findElements(By.cssSelector("#month-cost-table tr[data-tenant='team-a']"))
                .isEmpty());
        browser.driver.findElement(By.id("budget-tenant")).sendKeys("team-a");
        new Select(browser.driver.findElement(By.id("budget-unit"))).selectByValue("COST");
        browser.driver.findElement(By.id("budget-limit")).sendKeys("250000");
        browser.driver.findElement(By.id("budget-set")).click();
        browser.wait.until(d -> d.findElement(By.id("message"))
                .getText()
                .equals("Budget of team-a for " + month + " set: 250000.00 USD"));
        browser.wait.until(d -> budgetCells(d.findElement(By.cssSelector("#month-cost-table tr[data-tenant='team-a']")))
                .getFirst()
                .equals("250000.00 USD"));

        Map<String, Object> cost = BookingApp.read(
                fixture.app.get("/api/v1/budgets/team-a/" + month, ADMIN).body());
        assertThat(cost).containsEntry("unit", "COST").containsEntry("currency", "USD");
        double booked = ((Number) cost.get("booked")).doubleValue();
        assertThat(booked).as("team-a's GPU-hours at 3.50 USD").isCloseTo(gpuHours[0] * 3.5, within(0.001));
        assertThat(budgetCells(
                        browser.driver.findElement(By.cssSelector("#month-cost-table tr[data-tenant='team-a']"))))
                .as("limit, booked, held, booked of the limit, share of the month's cost budgets")
                .containsExactly(
                        "250000.00 USD",
                        String.format(Locale.ROOT, "%.2f", booked),
                        String.format(Locale.ROOT, "%.2f", ((Number) cost.get("held")).doubleValue()),
                        String.format(Locale.ROOT, "%.1f %%", booked / 250000 * 100),
                        "100.0 %");
        assertThat(budgetCells(browser.driver.findElement(By.cssSelector("#month-cost-table tr[data-tenant='team-b']")))
                        .getLast())
                .as("GPU-hour and cost budgets are not added together")
                .isEqualTo("100.0 %");
        assertThat(browser.consoleErrors()).isEmpty();

        // The fixture is shared with the other dashboard ITs: a slice of the pool no other one fills, given back.
        var ended = fixture.app.send(
                "POST", booking.headers().firstValue("Location").orElseThrow() + "/end", TEAM_A, null, Map.of());
        assertThat(ended.statusCode()).as(ended.body()).isEqualTo(200);
    }

    /** A figure of team-a's budget of {@code month}, as the API has it. */
    private static double figure(String month, String name) {
        Map<String, Object> budget = BookingApp.read(
                fixture.app.get("/api/v1/budgets/team-a/" + month, ADMIN).body());
        return ((Number) budget.get(name)).doubleValue();
    }

    private static List<String> budgetCells(WebElement row) {
        List<String> cells = costCells(row);
        return cells.subList(7, cells.size());
    }

    private static List<String> costCells(WebElement row) {
        return row.findElements(By.tagName("td")).stream()
                .map(WebElement::getText)
                .toList();
    }

    @Test
    void shouldShowALiveUtilizationLineWhenABookingIsActive() {
        var res = fixture.app.post(
                TEAM_A,
                BookingApp.json(Map.of(
                        "pool", "h200-mig-2g.35gb", "quantity", 2, "duration", "PT1H", "namespace", "team-a-dev")));
        assertThat(res.statusCode()).as(res.body()).isEqualTo(201);
        String id = (String) BookingApp.read(res.body()).get("id");
        browser.signIn(fixture.app.server.getURI(), TEAM_A);
        String line = "#bookings tr[data-id='" + id + "'] .util";
        browser.wait.until(d ->
                d.findElement(By.cssSelector(line + " .util-text")).getText().startsWith("1.3 of 2 GPUs busy"));
        assertThat(browser.driver
                        .findElement(By.cssSelector(line + " svg polyline"))
                        .getDomAttribute("points")
                        .split(" "))
                .as("one point per served minute")
                .hasSize(3);
        assertThat(FakeLedger.CALLS)
                .contains(new Call(
                        "/api/v1/usage/bookings/" + id + "/utilization?minutes=60",
                        "Bearer " + TEAM_A,
                        "application/json"));
        browser.js("arguments[0].scrollIntoView({block: 'center'});", browser.driver.findElement(By.cssSelector(line)));
        browser.screenshot("dashboard-utilization");
        assertThat(browser.consoleErrors()).isEmpty();
    }

    @Test
    void shouldListTheBookingsWithTheMostIdleGpuHoursWhenAnAdminOpensTheDashboard() {
        browser.signIn(fixture.app.server.getURI(), ADMIN);
        List<WebElement> rows = browser.wait.until(d -> {
            List<WebElement> found = d.findElements(By.cssSelector("#most-idle tbody tr"));
            return found.size() == 10 ? found : null;
        });
        assertThat(rows)
                .extracting(r ->
                        Double.parseDouble(r.findElement(By.className("idle")).getText()))
                .containsExactly(12.0, 9.75, 7.25, 6.0, 5.5, 4.5, 3.5, 2.0, 1.25, 0.75);
        assertThat(rows.get(0).getText()).contains("team-a", "h200", "16.00", "4.00", "12.00");
        assertThat(rows.get(0).getDomAttribute("data-booking")).isEqualTo("b-04");
        assertThat(FakeLedger.CALLS).anySatisfy(c -> {
            assertThat(c.pathAndQuery())
                    .contains(
                            "groupBy=booking",
                            "from=" + LocalDate.now(ZoneOffset.UTC).minusDays(6));
            assertThat(c.authorization()).isEqualTo("Bearer " + ADMIN);
        });
        browser.js("arguments[0].scrollIntoView({block: 'center'});", rows.get(0));
        browser.screenshot("dashboard-most-idle");
        assertThat(browser.consoleErrors()).isEmpty();
    }

    @Test
    void shouldBeUsableByKeyboardAndAtPhoneWidthWhenUsageIsShown() throws IOException {
        browser.driver.manage().window().setSize(new Dimension(390, 844));
        Path downloads = browser.allowDownloads("usage-phone");
        browser.signIn(fixture.app.server.getURI(), TEAM_A);
        browser.wait.until(
                d -> !d.findElements(By.cssSelector(dayRow(YESTERDAY))).isEmpty());
        Object overflow = browser.js("return document.documentElement.scrollWidth - window.innerWidth;");
        assertThat(((Number) overflow).intValue()).as("horizontal overflow").isLessThanOrEqualTo(0);
        Object chartRight = browser.js(
                "return document.querySelector('#usage-chart svg').getBoundingClientRect().right - window.innerWidth;");
        assertThat(((Number) chartRight).doubleValue())
                .as("the chart fits the phone")
                .isLessThanOrEqualTo(1);

        browser.js("document.getElementById('usage-pool').focus();");
        browser.driver.switchTo().activeElement().sendKeys(Keys.TAB);
        WebElement csv = browser.driver.switchTo().activeElement();
        assertThat(csv.getDomAttribute("id"))
                .as("Tab from the pool reaches Download CSV")
                .isEqualTo("usage-csv");
        assertThat(csv.getCssValue("outline-style")).as("visible focus").isNotEqualTo("none");
        csv.sendKeys(Keys.ENTER);
        Path file = browser.wait.until(d -> finishedDownload(downloads).orElse(null));
        assertThat(Files.readString(file)).isEqualTo(FakeLedger.dayCsv());
        assertThat(browser.driver
                        .findElement(By.cssSelector(dayRow(YESTERDAY) + " th"))
                        .getDomAttribute("scope"))
                .isEqualTo("row");
        browser.js("document.getElementById('usage').scrollIntoView();");
        browser.screenshot("dashboard-usage-phone");
        assertThat(browser.consoleErrors()).isEmpty();
    }

    private static String dayRow(String day) {
        return "#usage-table tbody tr[data-day='" + day + "']";
    }

    private static List<String> figures(WebElement row) {
        return row.findElements(By.tagName("td")).stream()
                .map(WebElement::getText)
                .toList();
    }

    private static Optional<Path> finishedDownload(Path dir) {
        try (var files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".csv"))
                    .findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
