package io.gpuaas.booking.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuaas.booking.http.ProblemException;
import java.net.http.HttpClient;
import java.time.Duration;
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
