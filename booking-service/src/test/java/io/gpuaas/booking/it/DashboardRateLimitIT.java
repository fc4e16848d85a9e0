package io.gpuaas.booking.it;

import static io.gpuaas.booking.it.BookingApp.JWT;
import static io.gpuaas.booking.it.BookingApp.TEAM_A;
import static io.gpuaas.booking.it.BookingApp.TEAM_B;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.testing.kafka.KafkaBroker;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;

/**
 * The dashboard of a tenant with many active bookings, against a service of its own with a tight per-tenant rate
 * limit: every redraw of "My bookings" must not read each booking's utilization again, nor the usage views an
 * unconfigured usage again, a read the limit refuses is asked again after Retry-After, and a refused change is not
 * sent twice. Usage is not configured here (503), as in the shared browser ITs where this was first seen.
 */
class DashboardRateLimitIT extends DashboardIT {

    private static final int ACTIVE = 8;
    /**
     * Enough for the page to open (at most 27 requests with 8 active bookings) and for three changes with their
     * redraws (at most 51) while each utilization line is read once at most, and a few more; not for a page that
     * reads every line again on each redraw (21 more before the cancel's redraw). One token per 3⅓ s refills too slowly to make up the difference.
     */
    private static final int BURST = 80;

    private static final double PER_SECOND = 0.3;
    /** Books for the tenants as an admin: its own bucket, so the tenants' buckets are full when their page opens. */
    private static final String OPS =
            JWT.token("ops", "platform", List.of("team-a", "team-b"), List.of("admin"), Duration.ofHours(1));

    private static BookingApp app;

    @BeforeAll
    static void start(KafkaBroker broker) {
        app = BookingApp.start(
                broker,
                Map.of(
                        "gpuaas.booking.http.burst",
                        BURST,
                        "gpuaas.booking.http.requests-per-second",
                        PER_SECOND,
                        "gpuaas.booking.decision-timeout",
                        "PT15S"));
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    @Test
    void shouldExtendEndAndCancelWhenATenantWithManyActiveBookingsHasATightRateLimit() {
        List<String> ids = IntStream.range(0, ACTIVE)
                .mapToObj(i -> bookNow("team-a", "h200-mig-1g.18gb"))
                .toList();
        browser.signIn(app.server.getURI(), TEAM_A);
        browser.js("performance.setResourceTimingBufferSize(2000);");
        browser.wait.until(d -> d.findElements(By.cssSelector("#bookings .util-text")).stream()
                        .filter(t -> t.getText().startsWith("utilization unavailable: usage is not configured"))
                        .count()
                == ACTIVE);

        rowOf(ids.get(0)).findElement(By.cssSelector("button.extend")).click();
        awaitMessage("Extended 1 × h200-mig-1g.18gb");
        rowOf(ids.get(1)).findElement(By.cssSelector("button.end")).click();
        awaitMessage("Ended 1 × h200-mig-1g.18gb");
        assertThat(rowOf(ids.get(1)).getDomAttribute("data-state")).isEqualTo("RELEASED");
        rowOf(ids.get(2)).findElement(By.cssSelector("button.cancel")).click();
        awaitMessage("Cancelled 1 × h200-mig-1g.18gb");
        assertThat(rowOf(ids.get(2)).getDomAttribute("data-state")).isEqualTo("CANCELLED");
        assertThat(browser.driver.findElement(By.id("message")).getDomAttribute("class"))
                .isNotEqualTo("error");

        // Usage answered "not configured" at most once per line (none once the chart's read, sent first, said so); the
        // redraws after each change did not ask again.
        for (String id : ids) {
            assertThat(requestsTo("/api/v1/usage/bookings/" + id + "/utilization"))
                    .as("utilization reads of %s", id)
                    .isLessThanOrEqualTo(1);
        }
        // Nor did the usage chart and the month's cost, both read when the page opened: after usage said "not
        // configured" they show that answer again on every redraw without asking.
        assertThat(requestsTo("/api/v1/usage")).as("usage reads").isEqualTo(1);
        assertThat(requestsTo("/api/v1/usage/fair-share"))
                .as("fair-share reads")
                .isEqualTo(1);
        assertThat(browser.driver.findElement(By.id("usage-status")).getText())
                .startsWith("Usage unavailable: usage is not configured");
        assertThat(browser.driver.findElement(By.id("month-cost-status")).getText())
                .startsWith("Cost unavailable: usage is not configured");
        assertThat(browser.consoleErrors("503")).isEmpty();
    }

    @Test
    void shouldAskAReadAgainButNotACancelWhenTheRateLimitRefusesThem() {
        String id = bookNow("team-b", "h200-mig-2g.35gb");
        browser.signIn(app.server.getURI(), TEAM_B);
        browser.js("performance.setResourceTimingBufferSize(2000);");
        WebElement row = browser.wait.until(d -> rowOf(id));
        assertThat(row.getDomAttribute("data-state")).isEqualTo("ACTIVE");

        // Another client of the same tenant spent its bucket: a cancel is refused and not sent again by itself.
        drainThen("#bookings tr[data-id='" + id + "'] button.cancel", null);
        awaitMessage("tenant team-b sends too many requests");
        assertThat(statusesOf("/api/v1/bookings/" + id)).containsExactly(429L);
        assertThat(status(id)).isEqualTo("ACTIVE");

        // A read refused 429 is asked again after its Retry-After. The refusal is made in the page (the next
        // availability read answers 429 with Retry-After: 1, as the service does), so the retry is certain to be
        // exercised: a real bucket drained from here may earn a token back before the read goes out.
        browser.js("document.querySelectorAll('#grid td').forEach((c) => { c.dataset.before = 'true'; });"
                + "document.getElementById('message').textContent = '';"
                + "window.availabilityReads = [];"
                + "const real = window.fetch;"
                + "let refused = false;"
                + "window.fetch = async (url, init) => {"
                + "  if (String(url).includes('/pools/h200-mig-3g.71gb/availability')) {"
                + "    if (!refused) {"
                + "      refused = true;"
                + "      window.availabilityReads.push(429);"
                + "      return new Response(JSON.stringify({ title: 'Too Many Requests', status: 429 }),"
                + "        { status: 429, headers: { 'Retry-After': '1', 'Content-Type': 'application/problem+json' } });"
                + "    }"
                + "    const res = await real(url, init);"
                + "    window.availabilityReads.push(res.status);"
                + "    return res;"
                + "  }"
                + "  return real(url, init);"
                + "};"
                + "const pool = document.getElementById('pool');"
                + "pool.value = 'h200-mig-3g.71gb'; pool.dispatchEvent(new Event('change'));");
        browser.wait.until(d -> d.findElements(By.cssSelector("#grid td")).size() >= 24
                        && d.findElements(By.cssSelector("#grid td[data-before]"))
                                .isEmpty()
                || !d.findElement(By.id("message")).getText().isEmpty());
        assertThat(browser.driver.findElement(By.id("message")).getText()).isEmpty();
        assertThat(browser.driver
                        .findElements(By.cssSelector("#grid td[data-before]"))
                        .size())
                .as("cells of the calendar drawn before the pool was picked")
                .isZero();
        @SuppressWarnings("unchecked")
        List<Long> reads = (List<Long>) browser.js("return window.availabilityReads;");
        assertThat(reads)
                .as("the availability read refused (first in the page, then by the bucket still spent above), asked "
                        + "again after each Retry-After and answered")
                .startsWith(429L)
                .endsWith(200L)
                .containsOnly(429L, 200L)
                .containsOnlyOnce(200L);
    }

    /** A book-now of one unit for {@code tenant}, written by the admin; ACTIVE from now on. */
    private static String bookNow(String tenant, String pool) {
        var res = app.post(
                OPS,
                BookingApp.json(Map.of(
                        "pool", pool, "quantity", 1, "duration", "PT2H", "namespace", tenant, "tenant", tenant)));
        assertThat(res.statusCode()).as(res.body()).isEqualTo(201);
        Map<String, Object> booking = BookingApp.read(res.body());
        assertThat(booking.get("state")).isEqualTo("ACTIVE");
        return (String) booking.get("id");
    }

    /**
     * Spends the signed-in tenant's bucket from the page, as another client of the tenant would, until the service
     * says 429; then at once clicks {@code selector}, or picks {@code value} in that select, so no token comes back
     * in between.
     */
    private void drainThen(String selector, String value) {
        Object drained = ((JavascriptExecutor) browser.driver)
                .executeAsyncScript(
                        "const [selector, value, burst, done] = arguments;"
                                + "const headers = { Authorization: 'Bearer ' + sessionStorage.getItem('gpuaas.token') };"
                                + "(async () => {"
                                + "  for (let i = 0; i <= burst; i++) {"
                                + "    if ((await fetch('/api/v1/pools', { headers })).status === 429) {"
                                + "      const e = document.querySelector(selector);"
                                + "      if (value === null) { e.click(); } else {"
                                + "        e.value = value; e.dispatchEvent(new Event('change')); }"
                                + "      return true;"
                                + "    }"
                                + "  }"
                                + "  return false;"
                                + "})().then(done, () => done(false));",
                        selector,
                        value,
                        BURST);
        assertThat(drained).as("the bucket drained").isEqualTo(true);
    }

    private static String status(String id) {
        var res = app.get("/api/v1/bookings/" + id, OPS);
        assertThat(res.statusCode()).as(res.body()).isEqualTo(200);
        return (String) BookingApp.read(res.body()).get("state");
    }

    /** The HTTP status of each request the page made to {@code path} (any query), from the browser's resource timing. */
    @SuppressWarnings("unchecked")
    private List<Long> statusesOf(String path) {
        return (List<Long>) browser.js(
                "return performance.getEntriesByType('resource')"
                        + ".filter((e) => new URL(e.name).pathname === arguments[0]).map((e) => e.responseStatus);",
                path);
    }

    /** How many requests the page made to {@code path} (any query), from the browser's resource timing. */
    private long requestsTo(String path) {
        return statusesOf(path).size();
    }

    private void awaitMessage(String start) {
        browser.wait.until(d -> d.findElement(By.id("message")).getText().startsWith(start));
    }

    private WebElement rowOf(String id) {
        return browser.driver.findElement(By.cssSelector("#bookings tbody tr[data-id='" + id + "']"));
    }
}
