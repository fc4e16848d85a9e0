package io.gpuaas.kit.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.kit.runtime.ComponentHealth.State;
import io.gpuaas.kit.runtime.ScriptedComponents.Journal;
import io.gpuaas.kit.runtime.ScriptedComponents.Scripted;
import io.gpuaas.testing.auth.TestJwt;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import io.micronaut.context.ApplicationContext;
import io.micronaut.inject.qualifiers.Qualifiers;
import io.micronaut.runtime.server.EmbeddedServer;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The lifecycle in a running service: component order, and what the probes see of component health. */
@ExtendWith(KafkaBrokerExtension.class)
class ServiceLifecycleIT {

    private static final TestJwt JWT = TestJwt.generate();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private EmbeddedServer server;
    private Journal journal;
    private Scripted feed;
    private Scripted writer;

    @BeforeEach
    void start(KafkaBroker broker) throws Exception {
        Map<String, Object> properties = new HashMap<>(broker.serviceProperties("gpuaas-lifecycle-it", List.of()));
        properties.putAll(Map.of(
                "micronaut.server.port",
                -1,
                "endpoints.all.enabled",
                false,
                "endpoints.health.enabled",
                true,
                "endpoints.health.sensitive",
                false,
                "endpoints.health.details-visible",
                "AUTHENTICATED",
                "gpuaas.security.issuer",
                TestJwt.ISSUER,
                "gpuaas.security.audience",
                TestJwt.AUDIENCE,
                "gpuaas.security.jwks-path",
                JWT.writeJwks(Files.createTempFile("jwks", ".json")).toString(),
                "gpuaas.lifecycle.shutdown-grace",
                "3s",
                ScriptedComponents.ENABLED,
                true));
        server = ApplicationContext.run(EmbeddedServer.class, properties);
        ApplicationContext context = server.getApplicationContext();
        journal = context.getBean(Journal.class);
        feed = context.getBean(Scripted.class, Qualifiers.byName("feed"));
        writer = context.getBean(Scripted.class, Qualifiers.byName("writer"));
    }

    @AfterEach
    void stop() {
        if (server.isRunning()) {
            server.getApplicationContext().close();
        }
    }

    @Test
    void shouldStartComponentsInOrderAndStopThemInReverseWithTheConfiguredGrace() {
        assertThat(journal.entries).containsExactly("start booking-feed", "start quota-writer");

        server.getApplicationContext().close();

        assertThat(journal.entries)
                .containsExactly(
                        "start booking-feed",
                        "start quota-writer",
                        "stop quota-writer within PT3S",
                        "stop booking-feed within PT3S");
    }

    @Test
    void shouldBeReadyOnlyWhileEveryComponentRunsCaughtUp() throws Exception {
        assertThat(get("/health/readiness", null).statusCode())
                .as("both starting")
                .isEqualTo(503);

        feed.health(State.RUNNING, true);
        writer.health(State.RUNNING, false);
        assertThat(get("/health/readiness", null).statusCode())
                .as("writer not caught up")
                .isEqualTo(503);

        writer.health(State.RUNNING, true);
        assertThat(get("/health/readiness", null).statusCode()).isEqualTo(200);

        feed.health(State.RECOVERING, true);
        HttpResponse<String> recovering = get("/health/readiness", token(List.of("metrics")));
        assertThat(recovering.statusCode()).isEqualTo(503);
        assertThat(recovering.body()).contains("booking-feed", "RECOVERING", "quota-writer", "RUNNING");
        assertThat(get("/health/liveness", null).statusCode())
                .as("recovering is alive")
                .isEqualTo(200);
        assertThat(get("/health/readiness", null).body()).doesNotContain("booking-feed");
    }

    @Test
    void shouldNotBeLiveWhenAComponentIsDead() throws Exception {
        feed.health(State.RUNNING, true);
        writer.health(State.DEAD, true);

        HttpResponse<String> liveness = get("/health/liveness", token(List.of("admin")));
        assertThat(liveness.statusCode()).isEqualTo(503);
        assertThat(liveness.body()).contains("quota-writer", "DEAD");
        assertThat(get("/health/readiness", null).statusCode()).isEqualTo(503);
        HttpResponse<String> health = get("/health", token(List.of("admin")));
        assertThat(health.statusCode()).isEqualTo(503);
        assertThat(health.body()).contains("components", "DEAD");
    }

    private HttpResponse<String> get(String path, String token) throws Exception {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(server.getURI().resolve(path)).timeout(Duration.ofSeconds(20));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String token(List<String> roles) {
        return JWT.token("sre", "platform", List.of(), roles, Duration.ofMinutes(5));
    }
}
