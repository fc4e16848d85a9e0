package io.gpuaas.booking.it;

import static io.gpuaas.events.KafkaPrincipal.BOOKING_SERVICE;

import io.gpuaas.events.Json;
import io.gpuaas.events.KafkaAccess;
import io.gpuaas.events.TopicAdmin;
import io.gpuaas.testing.auth.TestJwt;
import io.gpuaas.testing.health.Readiness;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;

/** booking-service on an ephemeral port against the shared test broker, with real signed tokens. */
final class BookingApp implements AutoCloseable {

    static final TestJwt JWT = TestJwt.generate();
    static final String TEAM_A =
            JWT.token("alice", "team-a", List.of("team-a", "team-a-dev"), List.of(), Duration.ofHours(1));
    static final String TEAM_B = JWT.token("bob", "team-b", List.of("team-b"), List.of(), Duration.ofHours(1));
    static final String ADMIN = JWT.token("root", "platform", List.of(), List.of("admin"), Duration.ofHours(1));

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    final EmbeddedServer server;
    final String prefix;
    final String applicationId;

    private BookingApp(EmbeddedServer server, String prefix, String applicationId) {
        this.server = server;
        this.prefix = prefix;
        this.applicationId = applicationId;
    }

    private static BookingApp shared;

    /**
     * One service instance shared by the API, bad-input, race and browser ITs of this JVM: starting one costs
     * tens of seconds on a loaded 2-core machine. Each test uses its own time windows, so they do not interfere.
     */
    static synchronized BookingApp shared(KafkaBroker broker) {
        if (shared == null) {
            shared = start(
                    broker,
                    Map.of(
                            "gpuaas.booking.http.burst",
                            100,
                            "gpuaas.booking.http.requests-per-second",
                            5,
                            "gpuaas.booking.decision-timeout",
                            "PT15S"));
            Runtime.getRuntime().addShutdownHook(new Thread(shared.server::close));
        }
        return shared;
    }

    /** An instance of its own deployment: its own topics (created here) and Streams application id. */
    static BookingApp start(KafkaBroker broker, Map<String, Object> extra) {
        String prefix = broker.uniquePrefix();
        try (Admin admin = broker.admin()) {
            TopicAdmin.createAll(admin, prefix);
        }
        return start(broker, prefix, broker.uniqueGroupId("booking"), extra);
    }

    /**
     * An instance of the deployment whose topics carry {@code prefix} (created already) and whose decision engine is
     * the Streams application {@code applicationId}: start two with the same values for two replicas.
     */
    static BookingApp start(KafkaBroker broker, String prefix, String applicationId, Map<String, Object> extra) {
        try {
            Path jwks = JWT.writeJwks(Files.createTempFile("jwks", ".json"));
            Map<String, Object> props = new HashMap<>(Map.of(
                    "micronaut.server.port",
                    -1,
                    "gpuaas.kafka.topic-prefix",
                    prefix,
                    "gpuaas.security.jwks-path",
                    jwks.toString(),
                    "gpuaas.booking.application-id",
                    applicationId,
                    "gpuaas.booking.state-dir",
                    Files.createTempDirectory("booking-state").toString()));
            // The service's own Kafka user with exactly its ACLs: a grant it lacks fails here as in production.
            props.putAll(broker.serviceProperties(
                    BOOKING_SERVICE.userName(), KafkaAccess.acls(BOOKING_SERVICE, prefix, applicationId)));
            props.putAll(extra);
            BookingApp app = new BookingApp(ApplicationContext.run(EmbeddedServer.class, props), prefix, applicationId);
            app.awaitReady();
            return app;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void awaitReady() {
        Readiness.of(server.getURI()).awaitUp();
    }

    /** The status of {@code /health/readiness} as a probe sees it: 200 ready, 503 not. */
    int readiness() {
        return send("GET", "/health/readiness", null, null, Map.of()).statusCode();
    }

    /** A bean of this instance's context (test seams). */
    <T> T bean(Class<T> type) {
        return server.getApplicationContext().getBean(type);
    }

    HttpResponse<String> send(String method, String path, String token, String body, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.getURI() + path))
                .timeout(Duration.ofSeconds(30))
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        headers.forEach(request::setHeader);
        try {
            return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    HttpResponse<String> post(String token, String body) {
        return send("POST", "/api/v1/bookings", token, body, Map.of());
    }

    HttpResponse<String> get(String path, String token) {
        return send("GET", path, token, null, Map.of());
    }

    static String createBody(String pool, int quantity, Instant start, Instant end, String namespace) {
        return json(Map.of(
                "pool",
                pool,
                "quantity",
                quantity,
                "start",
                start.toString(),
                "end",
                end.toString(),
                "namespace",
                namespace));
    }

    static String json(Object value) {
        try {
            return Json.mapper().writeValueAsString(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> read(String body) {
        try {
            return Json.mapper().readValue(body, Map.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The next whole hour at least {@code hoursAhead} hours from now: aligned to any policy alignment. */
    static Instant hourFromNow(int hoursAhead) {
        long hour = 3_600_000L;
        return Instant.ofEpochMilli((System.currentTimeMillis() / hour + hoursAhead) * hour);
    }

    /** Stops the instance as a pod stops (components stopped in order); closing twice is harmless. */
    @Override
    public void close() {
        if (server.isRunning()) {
            server.close();
        }
    }
}
