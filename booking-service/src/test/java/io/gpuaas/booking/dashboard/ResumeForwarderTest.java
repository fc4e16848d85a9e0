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

class ResumeForwarderTest {

    @Test
    void shouldPassTheReclaimersAnswerWhenTheResumeSucceeds() {
        assertThat(ResumeForwarder.answer(200, "{\"groups\":[]}", "team-a/RayCluster/r"))
                .isEqualTo("{\"groups\":[]}");
    }

    @Test
    void shouldMapTheReclaimersRefusalsWithoutItsBodyWhenTheResumeFails() {
        assertThat(status(404)).isEqualTo(404);
        assertThat(status(403)).as("nothing about other tenants' workloads").isEqualTo(404);
        assertThat(status(409)).isEqualTo(409);
        assertThat(status(429)).isEqualTo(429);
        assertThat(status(503)).isEqualTo(502);
        assertThatThrownBy(() -> ResumeForwarder.answer(500, "java.lang.NullPointerException at ...", "w"))
                .isInstanceOf(ProblemException.class)
                .hasMessageNotContaining("NullPointerException");
    }

    @Test
    void shouldPostToTheWorkloadsResumeWithTheCallersOwnCredentialWhenForwarding() throws IOException {
        List<String> seen = new CopyOnWriteArrayList<>();
        HttpServer reclaimer = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        reclaimer.createContext("/", exchange -> {
            seen.add(
                    exchange.getRequestMethod() + " " + exchange.getRequestURI().getRawPath() + " "
                            + exchange.getRequestHeaders().getFirst("X-Forwarded-Access-Token") + " "
                            + exchange.getRequestHeaders().getFirst("Accept"));
            byte[] body = "{\"groups\":[]}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        reclaimer.start();
        try {
            ResumeForwarder forwarder = new ResumeForwarder(
                    HttpClient.newHttpClient(),
                    "http://127.0.0.1:" + reclaimer.getAddress().getPort(),
                    Duration.ofSeconds(5));

            String answer = forwarder.resume(
                    "team-a", "RayCluster", "my ray", new CallerCredential("X-Forwarded-Access-Token", "sha~u"));

            assertThat(answer).isEqualTo("{\"groups\":[]}");
            assertThat(seen)
                    .containsExactly("POST /api/v1/workloads/team-a/RayCluster/my%20ray/resume sha~u application/json");
        } finally {
            reclaimer.stop(0);
        }
    }

    @Test
    void shouldAnswer503WhenNoReclaimerIsConfigured() {
        ResumeForwarder off = new ResumeForwarder(HttpClient.newHttpClient(), null, Duration.ofSeconds(1));
        assertThatThrownBy(() ->
                        off.resume("team-a", "RayCluster", "r", new CallerCredential("Authorization", "Bearer token")))
                .isInstanceOfSatisfying(
                        ProblemException.class, e -> assertThat(e.status()).isEqualTo(503));
    }

    @Test
    void shouldAnswer502WhenTheReclaimerCannotBeReached() {
        ResumeForwarder down =
                new ResumeForwarder(HttpClient.newHttpClient(), "http://127.0.0.1:1", Duration.ofSeconds(2));
        assertThatThrownBy(() ->
                        down.resume("team-a", "RayCluster", "r", new CallerCredential("Authorization", "Bearer token")))
                .isInstanceOfSatisfying(
                        ProblemException.class, e -> assertThat(e.status()).isEqualTo(502));
    }

    private static int status(int reclaimer) {
        try {
            ResumeForwarder.answer(reclaimer, "", "team-a/RayCluster/r");
            return 200;
        } catch (ProblemException e) {
            return e.status();
        }
    }
}
