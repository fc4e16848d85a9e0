package io.gpuaas.bench.dashboard;

import static io.gpuaas.events.KafkaPrincipal.BOOKING_SERVICE;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpuaas.events.Json;
import io.gpuaas.events.KafkaAccess;
import io.gpuaas.events.TopicAdmin;
import io.gpuaas.testing.auth.TestJwt;
import io.gpuaas.testing.kafka.KafkaBroker;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;

/**
 * booking-service as deployed, in a JVM of its own (as deploy/local runs it: the module's {@code target/classes} and
 * {@code target/classpath.txt}, configuration as system properties; the bench JVM holds every service's beans): its
 * own topics on the bench's broker, its own Kafka user with exactly its ACLs, JWTs signed by a key of its JWKS file,
 * the shipped pool catalog. Tenants {@code team-0..team-<n-1>}, each owning the namespace of its name.
 */
final class BookingServiceUnderTest implements AutoCloseable {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final Duration READY_TIMEOUT = Duration.ofMinutes(3);

    private final Process process;
    private final URI uri;
    private final List<String> tokens;

    private BookingServiceUnderTest(Process process, URI uri, List<String> tokens) {
        this.process = process;
        this.uri = uri;
        this.tokens = tokens;
    }

    /** Starts it from {@code root}'s built booking-service module, its output in {@code log}. */
    static BookingServiceUnderTest start(KafkaBroker broker, int tenants, Path root, Path log)
            throws IOException, InterruptedException {
        String prefix = broker.uniquePrefix();
        try (Admin admin = broker.admin()) {
            TopicAdmin.createAll(admin, prefix);
        }
        String applicationId = broker.uniqueGroupId("bench-dashboard");
        TestJwt jwt = TestJwt.generate();
        Path jwks = jwt.writeJwks(Files.createTempFile("jwks", ".json"));
        int port = freePort();
        Map<String, Object> props = new HashMap<>(Map.of(
                "micronaut.server.port",
                port,
                "gpuaas.kafka.topic-prefix",
                prefix,
                "gpuaas.security.jwks-path",
                jwks.toString(),
                "gpuaas.booking.application-id",
                applicationId,
                "gpuaas.booking.state-dir",
                Files.createTempDirectory("booking-state").toString(),
                // The seeding is one client sending as fast as decisions come: not what the rate limit is for.
                "gpuaas.booking.http.requests-per-second",
                1000,
                "gpuaas.booking.http.burst",
                1000));
        props.putAll(broker.serviceProperties(
                BOOKING_SERVICE.userName(), KafkaAccess.acls(BOOKING_SERVICE, prefix, applicationId)));
        List<String> tokens = new ArrayList<>();
        for (int t = 0; t < tenants; t++) {
            String tenant = "team-" + t;
            tokens.add(jwt.token("user-" + t, tenant, List.of(tenant), List.of(), Duration.ofHours(4)));
        }
        Files.createDirectories(log.toAbsolutePath().getParent());
        Process process = new ProcessBuilder(command(root, props))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .directory(root.toFile())
                .start();
        BookingServiceUnderTest service =
                new BookingServiceUnderTest(process, URI.create("http://127.0.0.1:" + port), tokens);
        try {
            service.awaitReady(log);
        } catch (RuntimeException | IOException | InterruptedException e) {
            service.close();
            throw e;
        }
        return service;
    }

    private static List<String> command(Path root, Map<String, Object> props) throws IOException {
        Path target = root.resolve("booking-service/target");
        Path classpath = target.resolve("classpath.txt");
        if (!Files.isRegularFile(classpath)) {
            throw new IllegalStateException("booking-service is not built (no " + classpath + ")");
        }
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m", "-XX:+UseSerialGC"));
        if (Runtime.version().feature() >= 24) {
            command.add("--sun-misc-unsafe-memory-access=allow");
        }
        props.forEach((k, v) -> command.add("-D" + k + "=" + v));
        command.add("-cp");
        command.add(target.resolve("classes")
                + File.pathSeparator
                + Files.readString(classpath).trim());
        command.add("io.gpuaas.booking.BookingServiceApplication");
        return command;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    URI uri() {
        return uri;
    }

    String token(int tenant) {
        return tokens.get(tenant);
    }

    /**
     * Books {@code count} windows through the API, round-robin over the pools and tenants, starting on the hour
     * within the coming three days, 1 to 6 hours long, 1 or 2 units; a request that does not fit is skipped.
     *
     * @return how many were confirmed
     */
    int seed(int count) throws IOException, InterruptedException {
        List<String> pools = new ArrayList<>();
        send("GET", "/api/v1/pools", token(0), null)
                .forEach(p -> pools.add(p.path("id").asText()));
        Instant firstHour = Instant.now().truncatedTo(ChronoUnit.HOURS).plus(Duration.ofHours(1));
        Random random = new Random(17);
        int confirmed = 0;
        for (int i = 0; confirmed < count && i < count * 5; i++) {
            int tenant = i % tokens.size();
            Instant start = firstHour.plus(Duration.ofHours(random.nextInt(72)));
            Instant end = start.plus(Duration.ofHours(1 + random.nextInt(6)));
            Map<String, Object> body = Map.of(
                    "pool",
                    pools.get(i % pools.size()),
                    "quantity",
                    1 + random.nextInt(2),
                    "start",
                    start.toString(),
                    "end",
                    end.toString(),
                    "namespace",
                    "team-" + tenant,
                    "purpose",
                    "bench dashboard");
            if (status("POST", "/api/v1/bookings", token(tenant), Json.mapper().writeValueAsString(body)) == 201) {
                confirmed++;
            }
        }
        return confirmed;
    }

    private void awaitReady(Path log) throws IOException, InterruptedException {
        Instant deadline = Instant.now().plus(READY_TIMEOUT);
        while (status("GET", "/health/readiness", null, null) != 200) {
            if (!process.isAlive()) {
                throw new IllegalStateException("booking-service exited with " + process.exitValue() + "; see " + log);
            }
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException("booking-service not ready within " + READY_TIMEOUT + "; see " + log);
            }
            Thread.sleep(200);
        }
    }

    private JsonNode send(String method, String path, String token, String body)
            throws IOException, InterruptedException {
        HttpResponse<String> response =
                HTTP.send(request(method, path, token, body), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException(method + " " + path + ": " + response.statusCode() + " " + response.body());
        }
        return Json.mapper().readTree(response.body());
    }

    private int status(String method, String path, String token, String body) throws InterruptedException {
        try {
            return HTTP.send(request(method, path, token, body), HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        } catch (IOException e) {
            return -1; // not listening yet
        }
    }

    private HttpRequest request(String method, String path, String token, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(uri + path))
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
        return request.build();
    }

    /** Stops it as Kubernetes would (SIGTERM, then a kill after the grace). */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }
}
