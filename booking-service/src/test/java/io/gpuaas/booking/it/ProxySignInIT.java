package io.gpuaas.booking.it;

import static io.gpuaas.booking.it.BookingApp.TEAM_A;
import static io.gpuaas.booking.it.BookingApp.createBody;
import static io.gpuaas.booking.it.BookingApp.hourFromNow;
import static io.gpuaas.booking.it.BookingApp.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gpuaas.testing.auth.FakeUserApi;
import io.gpuaas.testing.browser.ChromiumExtension;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * booking-service behind the cluster's OAuth proxy (the OpenShift overlay): the proxy forwards the signed-in user's
 * token in {@code X-Forwarded-Access-Token}; the service asks the cluster whose it is and maps the groups to a team.
 */
@ExtendWith(KafkaBrokerExtension.class)
class ProxySignInIT {

    private static final String HEADER = "X-Forwarded-Access-Token";
    private static FakeUserApi cluster;
    private static BookingApp app;

    @BeforeAll
    static void start(KafkaBroker broker) throws Exception {
        cluster = new FakeUserApi();
        cluster.user("sha256~alice", "alice", List.of("system:authenticated", "team-a"));
        cluster.user("sha256~bob", "bob", List.of("system:authenticated", "team-b"));
        cluster.user("sha256~mallory", "mallory", List.of("system:authenticated"));
        Path groups = Files.writeString(Files.createTempFile("groups", ".yaml"), """
                groups:
                  - {group: team-a, tenant: team-a, namespaces: [team-a, team-a-dev]}
                  - {group: team-b, tenant: team-b}
                """);
        app = BookingApp.start(
                broker,
                Map.of(
                        "gpuaas.security.forwarded-identity.enabled", true,
                        "gpuaas.security.forwarded-identity.api-server", cluster.url(),
                        "gpuaas.security.forwarded-identity.mapping-path", groups.toString(),
                        "gpuaas.booking.ledger-url", FakeLedger.start().toString()));
    }

    @AfterAll
    static void stop() {
        app.close();
        cluster.close();
    }

    @Test
    void shouldTellThePageWhoIsSignedInWhenTheProxyForwardedTheUser() {
        HttpResponse<String> me = asUser("GET", "/api/v1/me", "sha256~alice", null);

        assertThat(me.statusCode()).as(me.body()).isEqualTo(200);
        assertThat(read(me.body()))
                .containsEntry("signedIn", true)
                .containsEntry("subject", "alice")
                .containsEntry("tenant", "team-a")
                .containsEntry("namespaces", List.of("team-a", "team-a-dev"))
                .containsEntry("signedInBy", "cluster");
    }

    @Test
    void shouldSayTokenWhenTheCallerPresentedABearerJwt() {
        assertThat(read(app.get("/api/v1/me", TEAM_A).body()))
                .containsEntry("tenant", "team-a")
                .containsEntry("signedInBy", "token");
    }

    @Test
    void shouldShowATeamOnlyItsOwnBookingsWhenSignedInThroughTheProxy() {
        Instant start = hourFromNow(300);
        HttpResponse<String> created = asUser(
                "POST",
                "/api/v1/bookings",
                "sha256~alice",
                createBody("h200", 1, start, start.plusSeconds(3600), "team-a-dev"));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        String id = (String) read(created.body()).get("id");

        assertThat(asUser("GET", "/api/v1/bookings?pool=h200", "sha256~alice", null)
                        .body())
                .contains(id);
        assertThat(asUser("GET", "/api/v1/bookings?pool=h200", "sha256~bob", null)
                        .body())
                .doesNotContain(id);
        assertThat(asUser("GET", "/api/v1/bookings/" + id, "sha256~bob", null).statusCode())
                .isEqualTo(404);
    }

    @Test
    void shouldRefuseAChangeFromAnotherSiteWhenOnlyTheProxySessionSignsItIn() {
        Instant start = hourFromNow(320);
        String body = createBody("h200", 1, start, start.plusSeconds(3600), "team-a-dev");
        for (String site : new String[] {null, "cross-site", "same-site"}) {
            Map<String, String> headers = site == null
                    ? Map.of(HEADER, "sha256~alice")
                    : Map.of(HEADER, "sha256~alice", "Sec-Fetch-Site", site);
            HttpResponse<String> refused = app.send("POST", "/api/v1/bookings", null, body, headers);
            assertThat(refused.statusCode()).as("Sec-Fetch-Site %s", site).isEqualTo(403);
            assertThat(read(refused.body())).containsEntry("rule", "CROSS_SITE_REQUEST");
            assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        }
        // "End now", an extension and a form a framing or foreign page might post: each refused as a problem.
        Map<String, String> crossSite = Map.of(HEADER, "sha256~alice", "Sec-Fetch-Site", "cross-site");
        for (String[] change : new String[][] {
            {"DELETE", "/api/v1/bookings/some-booking"},
            {"PATCH", "/api/v1/bookings/some-booking"},
            {"POST", "/api/v1/bookings/some-booking/end"}
        }) {
            HttpResponse<String> refused = app.send(change[0], change[1], null, "{}", crossSite);
            assertThat(refused.statusCode()).as(change[0] + " " + change[1]).isEqualTo(403);
            assertThat(refused.headers().firstValue("Content-Type"))
                    .as(change[0] + " " + change[1])
                    .hasValue("application/problem+json");
            assertThat(read(refused.body())).containsEntry("rule", "CROSS_SITE_REQUEST");
        }
        assertThat(asUser("GET", "/api/v1/bookings?pool=h200", "sha256~alice", null)
                        .body())
                .as("nothing was booked")
                .doesNotContain(start.toString());
    }

    @Test
    void shouldRefuseAUserInNoTeamGroupWith403() {
        HttpResponse<String> pools = asUser("GET", "/api/v1/pools", "sha256~mallory", null);

        assertThat(pools.statusCode()).isEqualTo(403);
        assertThat(pools.body()).contains("NO_TENANT").doesNotContain("sha256~");
    }

    @Test
    void shouldSayNobodyWithoutAnErrorSoThePageOffersThePasteFieldWhenNobodyIsSignedIn() {
        HttpResponse<String> me = app.get("/api/v1/me", null);

        assertThat(me.statusCode()).isEqualTo(200);
        assertThat(read(me.body())).containsEntry("signedIn", false).doesNotContainKey("tenant");
        assertThat(app.get("/api/v1/pools", null).statusCode()).isEqualTo(401);
        assertThat(app.get("/api/v1/me", "not-a-jwt").statusCode()).isEqualTo(401);
    }

    @Test
    @ExtendWith(ChromiumExtension.class)
    void shouldShowWhoTheProxySignedInAndNoPasteFieldWhenThePageOpens(ChromeDriver chrome) {
        DashboardBrowser browser = new DashboardBrowser(chrome);
        // What the proxy does: every request of the signed-in browser carries the user's token.
        chrome.executeCdpCommand("Network.enable", Map.of());
        chrome.executeCdpCommand("Network.setExtraHTTPHeaders", Map.of("headers", Map.of(HEADER, "sha256~alice")));

        chrome.get(app.server.getURI() + "/");
        browser.awaitDrawn();

        assertThat(chrome.findElement(By.id("whoami")).getText()).isEqualTo("signed in as alice, tenant: team-a");
        assertThat(chrome.findElement(By.id("token")).isDisplayed()).isFalse();
        assertThat(chrome.findElement(By.id("save-token")).isDisplayed()).isFalse();
        browser.screenshot("proxy-sign-in");
        assertThat(browser.consoleErrors()).isEmpty();
        // The usage view's reads reach the ledger with the proxy's token, not with a token of the page's own.
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(FakeLedger.CALLS)
                .anySatisfy(call -> assertThat(call.authorization()).isEqualTo("proxy:" + FakeLedger.PROXY_TEAM_A)));
    }

    private static HttpResponse<String> asUser(String method, String path, String token, String body) {
        // What a browser adds to its own page's calls (and no page of another site can set).
        return app.send(method, path, null, body, Map.of(HEADER, token, "Sec-Fetch-Site", "same-origin"));
    }
}
