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
import org.junit.jupiter.api.Test;

class KeepForwarderTest {

    @Test
    void shouldPostTheHoursWithTheCallersOwnCredentialAndPassTheAcceptedAnswer() throws IOException {
        List<String> seen = new CopyOnWriteArrayList<>();
        HttpServer reclaimer = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        reclaimer.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            seen.add(
                    exchange.getRequestMethod() + " " + exchange.getRequestURI().getRawPath() + " "
                            + exchange.getRequestHeaders().getFirst("Authorization") + " "
                            + exchange.getRequestHeaders().getFirst("Content-Type") + " " + body);
            byte[] answer = "{\"hours\":4,\"keptUntil\":\"2026-11-28T14:00:00Z\"}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(202, answer.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(answer);
            }
        });
        reclaimer.start();
        try {
            KeepForwarder forwarder = new KeepForwarder(
                    HttpClient.newHttpClient(),
                    "http://127.0.0.1:" + reclaimer.getAddress().getPort(),
                    Duration.ofSeconds(5));

            String answer = forwarder.keep(
                    "team-a", "RayCluster", "my ray", 4, new CallerCredential("Authorization", "Bearer t"));

            assertThat(answer).contains("\"keptUntil\":\"2026-11-28T14:00:00Z\"");
            assertThat(seen)
                    .containsExactly(
                            "POST /api/v1/workloads/team-a/RayCluster/my%20ray/keep Bearer t application/json {\"hours\":4}");
        } finally {
            reclaimer.stop(0);
        }
    }

    @Test
    void shouldPassOnlyTheBoundsNumbersWhenTheReclaimerRefusesBeyondABound() {
        String refusal = "{\"rule\":\"KEEP_BOUND\",\"detail\":\"internal words\",\"bound\":\"per-answer\","
                + "\"maxHours\":8,\"hoursLeft\":8}";

        assertThatThrownBy(() -> KeepForwarder.answer(422, refusal, "team-a/RayCluster/r"))
                .isInstanceOfSatisfying(ProblemException.class, e -> {
                    assertThat(e.status()).isEqualTo(422);
                    assertThat(e.getMessage()).doesNotContain("internal words");
                    assertThat(e.extra())
                            .containsEntry("bound", "per-answer")
                            .containsEntry("maxHours", 8)
                            .containsEntry("hoursLeft", 8)
                            .doesNotContainKey("detail");
                });
        assertThat(status(409)).isEqualTo(409);
        assertThat(status(403)).as("nothing about other tenants' workloads").isEqualTo(404);
        assertThat(status(404)).isEqualTo(404);
        assertThat(status(400)).isEqualTo(400);
        assertThat(status(500)).isEqualTo(502);
    }

    @Test
    void shouldAnswer503WhenNoReclaimerIsConfigured() {
        KeepForwarder off = new KeepForwarder(HttpClient.newHttpClient(), null, Duration.ofSeconds(1));
        assertThatThrownBy(() -> off.keep("team-a", "RayCluster", "r", 4, new CallerCredential("Authorization", "x")))
                .isInstanceOfSatisfying(
                        ProblemException.class, e -> assertThat(e.status()).isEqualTo(503));
    }

    private static int status(int reclaimer) {
        try {
            KeepForwarder.answer(reclaimer, "", "team-a/RayCluster/r");
            return 202;
        } catch (ProblemException e) {
            return e.status();
        }
    }
}
