package io.gpuaas.booking.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.gpuaas.booking.http.ProblemException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LedgerForwarderTest {

    private static final String PROXY_HEADER = "X-Forwarded-Access-Token";
    private static final CallerCredential BEARER = new CallerCredential("Authorization", "Bearer t");

    private static final String JSON = "application/json";
    private static final String PROBLEM = "application/problem+json";

    private final List<String> seen = new CopyOnWriteArrayList<>();
    private final CountDownLatch never = new CountDownLatch(1);
    private HttpServer server;

    @AfterEach
    void stop() {
        never.countDown();
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void shouldPassTheLedgersAnswerAndTheCallersTokenWhenTheReadSucceeds() throws IOException {
        String base = serve(200, "text/csv; charset=utf-8", "tenant,day\r\n");
        LedgerForwarder.Answer answer = forwarder(base, Duration.ofSeconds(5))
                .get(
                        "/api/v1/usage?from=2026-11-01&to=2026-11-02",
                        true,
                        new CallerCredential("Authorization", "Bearer tok-a"));
        assertThat(answer.csv()).isTrue();
        assertThat(answer.body()).isEqualTo("tenant,day\r\n");
        assertThat(seen).containsExactly("/api/v1/usage?from=2026-11-01&to=2026-11-02 Bearer tok-a text/csv");
    }

    @Test
    void shouldPassTheProxysForwardedTokenAndNoAuthorizationWhenTheCallerWasSignedInByTheProxy() throws IOException {
        String base = serve(200, "application/json", "{\"rows\":[]}");
        forwarder(base, Duration.ofSeconds(5))
                .get("/api/v1/usage?from=2026-11-01&to=2026-11-02", false, new CallerCredential(PROXY_HEADER, "sha~u"));
        assertThat(seen)
                .containsExactly("/api/v1/usage?from=2026-11-01&to=2026-11-02 null proxy:sha~u application/json");
    }

    @Test
    void shouldKeepTheStatusRuleAndFieldWhenTheLedgerRefusesTheRequest() {
        String body = "{\"status\":400,\"rule\":\"RANGE_TOO_WIDE\",\"field\":\"to\",\"detail\":\"at most 366 days\","
                + "\"maxDays\":366,\"instance\":\"/internal/path\"}";
        assertThatThrownBy(() -> LedgerForwarder.answer(400, PROBLEM, body, "q"))
                .isInstanceOfSatisfying(ProblemException.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.rule()).isEqualTo("RANGE_TOO_WIDE");
                    assertThat(e.field()).isEqualTo("to");
                    assertThat(e.extra()).containsEntry("maxDays", 366).doesNotContainKey("instance");
                });
        String notFound = "{\"status\":404,\"rule\":\"BOOKING_NOT_FOUND\",\"detail\":\"no booking b-1\"}";
        assertThat(status(404, PROBLEM, notFound)).isEqualTo(404);
        assertThat(status(403, PROBLEM, "{\"rule\":\"TENANT_NOT_OWNED\"}")).isEqualTo(403);
    }

    @Test
    void shouldAnswerItsOwnProblemWithoutTheLedgersBodyWhenTheLedgerFails() {
        assertThat(status(503, PROBLEM, "{\"rule\":\"LEDGER_CATCHING_UP\"}")).isEqualTo(503);
        assertThat(status(500, "text/plain", "java.lang.IllegalStateException at x.y"))
                .isEqualTo(502);
        assertThat(status(404, "text/html", "<h1>nginx</h1>"))
                .as("not a problem of the ledger")
                .isEqualTo(502);
        assertThat(status(401, PROBLEM, "{\"rule\":\"UNAUTHORIZED\"}"))
                .as("the caller's token was good here: a mismatch between the services")
                .isEqualTo(502);
        assertThatThrownBy(() -> LedgerForwarder.answer(500, "text/plain", "java.lang.IllegalStateException", "q"))
                .hasMessageNotContaining("IllegalStateException");
    }

    @Test
    void shouldAnswer503WhenNoLedgerIsConfigured() {
        assertThatThrownBy(() -> forwarder(null, Duration.ofSeconds(1)).get("/api/v1/usage", false, BEARER))
                .isInstanceOfSatisfying(ProblemException.class, e -> {
                    assertThat(e.status()).isEqualTo(503);
                    assertThat(e.rule()).isEqualTo("LEDGER_UNAVAILABLE");
                });
    }

    @Test
    void shouldAnswer502WhenTheLedgerCannotBeReachedAnd504WhenItHangs() throws IOException {
        assertThatThrownBy(() ->
                        forwarder("http://127.0.0.1:1", Duration.ofSeconds(2)).get("/api/v1/usage", false, BEARER))
                .isInstanceOfSatisfying(
                        ProblemException.class, e -> assertThat(e.status()).isEqualTo(502));
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            try {
                never.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.close();
        });
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        server.start();
        String hanging = "http://127.0.0.1:" + server.getAddress().getPort();
        assertThatThrownBy(() -> forwarder(hanging, Duration.ofMillis(300)).get("/api/v1/usage", false, BEARER))
                .isInstanceOfSatisfying(ProblemException.class, e -> {
                    assertThat(e.status()).isEqualTo(504);
                    assertThat(e.rule()).isEqualTo("LEDGER_TIMEOUT");
                });
    }

    private String serve(int status, String type, String body) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            seen.add(exchange.getRequestURI() + " "
                    + exchange.getRequestHeaders().getFirst("Authorization") + " "
                    + forwardedToken(exchange.getRequestHeaders().getFirst(PROXY_HEADER))
                    + exchange.getRequestHeaders().getFirst("Accept"));
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", type);
            exchange.sendResponseHeaders(status, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        server.start();
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private static String forwardedToken(String value) {
        return value == null ? "" : "proxy:" + value + " ";
    }

    private static LedgerForwarder forwarder(String base, Duration timeout) {
        return new LedgerForwarder(HttpClient.newHttpClient(), base, timeout);
    }

    private static int status(int ledger, String type, String body) {
        try {
            LedgerForwarder.answer(ledger, type, body, "q");
            return 200;
        } catch (ProblemException e) {
            return e.status();
        }
    }
}
