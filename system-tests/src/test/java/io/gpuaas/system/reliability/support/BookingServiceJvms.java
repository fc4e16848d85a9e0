package io.gpuaas.system.reliability.support;

import io.gpuaas.events.TopicAdmin;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.local.kafka.KafkaIdentities;
import io.gpuaas.local.services.ServiceLauncher;
import io.gpuaas.local.services.ServiceReplica;
import io.gpuaas.local.services.ServiceSpec;
import io.gpuaas.testing.auth.TestJwt;
import io.gpuaas.testing.kafka.KafkaBroker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;

/**
 * Replicas of booking-service alone, each in its own JVM (the reliability suite's {@link ServiceLauncher} and
 * {@link ServiceSnapshot}), against a broker of the caller's with SASL and ACLs on: the topics of their own prefix
 * created by the super user, the service logged in as its own user with exactly its ACLs. A replica restarts on its
 * port and state directory, as a pod restarts with its volume. For faults of booking-service that need no Kubernetes
 * API, fleet or other service, far cheaper than {@link ReliabilityStack}.
 */
public final class BookingServiceJvms implements AutoCloseable {

    private static final ServiceSpec SPEC = ServiceSpec.ALL.getFirst();

    private final Path target;
    private final KafkaIdentities identities;
    private final Map<String, String> properties;
    private final Map<Integer, Integer> ports = new ConcurrentHashMap<>();
    private final Map<Integer, ServiceLauncher.Running> running = new ConcurrentHashMap<>();
    private final Map<Integer, Integer> starts = new ConcurrentHashMap<>();
    private final TestJwt jwt = TestJwt.generate();
    private final HttpCalls http = new HttpCalls();

    private BookingServiceJvms(Path target, KafkaIdentities identities, Map<String, String> properties) {
        this.target = target;
        this.identities = identities;
        this.properties = properties;
    }

    /**
     * Creates the topics of {@code prefix} and the users, and writes the files the replicas read; starts none.
     *
     * @param settings booking-service properties beyond Kafka, security and pools (e.g. the lifecycle's)
     */
    public static BookingServiceJvms prepare(
            KafkaBroker broker, String prefix, Path target, PoolCatalog pools, Map<String, String> settings)
            throws IOException {
        ServiceSnapshot.deleteTree(target);
        Files.createDirectories(target);
        try (Admin admin = broker.admin()) {
            TopicAdmin.createAll(admin, prefix);
        }
        KafkaIdentities identities = KafkaIdentities.create(broker, prefix);
        BookingServiceJvms jvms = new BookingServiceJvms(target, identities, new LinkedHashMap<>());
        Map<String, String> p = jvms.properties;
        p.put("gpuaas.kafka.bootstrap-servers", broker.bootstrapServers());
        p.put("gpuaas.kafka.topic-prefix", prefix);
        p.put(
                KafkaIdentities.CONFIG_FILES_PROPERTY,
                identities
                        .writeServiceConfig(SPEC.principal(), target.resolve("kafka-login.properties"))
                        .toString());
        p.put(
                "gpuaas.security.jwks-path",
                jvms.jwt.writeJwks(target.resolve("jwks.json")).toString());
        p.put(
                "gpuaas.pools-file",
                Files.writeString(target.resolve("pools.json"), pools.toJson()).toString());
        p.putAll(settings);
        return jvms;
    }

    /** Starts replica {@code n} (1, 2, …), again after a kill: same port, same state directory, a log per start. */
    public synchronized void start(int n) throws IOException {
        ServiceReplica replica = new ServiceReplica(SPEC, n);
        int port = ports.computeIfAbsent(n, r -> Ports.free());
        int start = starts.merge(n, 1, Integer::sum);
        ServiceLauncher launcher = new ServiceLauncher(
                ServiceSnapshot.of(SPEC, repoRoot(), target.resolve("snapshot")),
                target.resolve("logs").resolve(replica.name()).resolve("start-" + start),
                Path.of(System.getProperty("java.home"), "bin", "java").toString());
        Map<String, String> own = new LinkedHashMap<>(properties);
        own.put(
                "gpuaas.booking.state-dir",
                target.resolve("state").resolve(replica.name()).toString());
        running.put(n, launcher.start(replica, port, own, replica.environment()));
    }

    /** {@code kill -9}: no flush, no commit, no leaving the consumer group. */
    public void kill(int n) throws InterruptedException {
        running.get(n).process().destroyForcibly().waitFor(20, TimeUnit.SECONDS);
    }

    /** Waits until {@code /health} of replica {@code n} answers UP; fails at once when its JVM exited. */
    public void awaitHealthy(int n, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            HttpCalls.Response health = http.get(url(n) + "/health", null);
            if (health.status() == 200 && health.body().contains("\"UP\"")) {
                return;
            }
            ServiceLauncher.Running jvm = running.get(n);
            if (!jvm.process().isAlive()) {
                throw new IllegalStateException(
                        jvm.name() + " exited with " + jvm.process().exitValue() + ", see " + jvm.log());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        jvm.name() + " not UP after " + timeout + ": " + health.body() + ", see " + jvm.log());
            }
            Thread.sleep(250);
        }
    }

    public String url(int n) {
        return "http://127.0.0.1:" + ports.get(n);
    }

    /** A tenant's token for {@code namespaces}, signed by the key the replicas trust. */
    public String token(String tenant, List<String> namespaces) {
        return jwt.token(tenant + "-user", tenant, namespaces, List.of(), Duration.ofHours(1));
    }

    /** An admin's token (no namespaces), signed by the key the replicas trust. */
    public String adminToken() {
        return jwt.token("root", "platform", List.of(), List.of("admin"), Duration.ofHours(1));
    }

    public HttpCalls http() {
        return http;
    }

    /** Reads as the SRE user ({@code read_committed}). */
    public KafkaProbe probe() {
        return new KafkaProbe(identities);
    }

    /** The topic {@code base} (e.g. {@code notices}) of these replicas' prefix. */
    public String topic(String base) {
        return properties.get("gpuaas.kafka.topic-prefix") + base;
    }

    public Path log(int n) {
        return running.get(n).log();
    }

    private static Path repoRoot() {
        return Path.of(System.getProperty("gpuaas.repo-root", ".."))
                .toAbsolutePath()
                .normalize();
    }

    /** Stops every replica as a pod stops (SIGTERM), then kills what is left after 15 s. */
    @Override
    public void close() {
        running.values().forEach(r -> r.process().destroy());
        for (ServiceLauncher.Running jvm : running.values()) {
            try {
                if (!jvm.process().waitFor(15, TimeUnit.SECONDS)) {
                    jvm.process().destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                jvm.process().destroyForcibly();
            }
        }
    }
}
