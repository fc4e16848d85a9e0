package io.gpuaas.system.reliability.support;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpuaas.events.Json;
import io.gpuaas.events.TopicAdmin;
import io.gpuaas.events.Topics;
import io.gpuaas.local.LocalStack;
import io.gpuaas.local.StackOptions;
import io.gpuaas.local.kafka.KafkaIdentities;
import io.gpuaas.local.services.ServiceLauncher;
import io.gpuaas.local.services.ServiceSpec;
import io.gpuaas.testing.auth.TestJwt;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;

/**
 * The whole system for the reliability suite, shared by every reliability IT in one test JVM (starting it costs
 * most of the suite's time): a restartable broker in its own JVM, the local stack's Kubernetes API, fleet and
 * stand-ins (its in-process broker stays unused), and the four services as child JVMs on fixed ephemeral ports so a
 * killed service comes back where its clients expect it. The broker runs with SASL and ACLs: its super user creates
 * the topics and one user per service with exactly its ACLs, and every service logs in as its own user.
 */
public final class ReliabilityStack {

    private static ReliabilityStack shared;

    private final Path target;
    private final LocalStack infra;
    private final ChildKafka kafka;
    private final KafkaIdentities identities;
    private final Map<String, Integer> ports = new ConcurrentHashMap<>();
    private final Map<String, ServiceLauncher.Running> running = new ConcurrentHashMap<>();
    private final Map<String, Integer> starts = new ConcurrentHashMap<>();
    private final Map<String, String> tokens = new LinkedHashMap<>();
    private final TestJwt jwt;
    private final HttpCalls http = new HttpCalls();

    private ReliabilityStack(Path target, LocalStack infra, ChildKafka kafka, KafkaIdentities identities)
            throws IOException {
        this.target = target;
        this.infra = infra;
        this.kafka = kafka;
        this.identities = identities;
        JsonNode demo = Json.mapper().readTree(infra.file("tokens").toFile());
        demo.fieldNames().forEachRemaining(name -> tokens.put(name, demo.get(name).get("token").asText()));
        this.jwt = TestJwt.loadOrGenerate(target.resolve("jwt-private.jwk"));
    }

    /** The stack of this test JVM, started on first use and stopped when the JVM exits. */
    public static synchronized ReliabilityStack shared() throws Exception {
        if (shared == null) {
            Path root = Path.of(System.getProperty("gpuaas.repo-root", "..")).toAbsolutePath().normalize();
            Path target = root.resolve("system-tests/target/reliability");
            deleteTree(target);
            Files.createDirectories(target);
            // Simulated workloads go idle a second after their pods start, so the reclaimer has something to do.
            StackOptions options = new StackOptions(16, 2, Set.of(), 0, 0, 0, 0, root, target, Duration.ofSeconds(1),
                    Duration.ofHours(1), Duration.ofMillis(500), Duration.ofSeconds(180), false);
            LocalStack infra = LocalStack.start(options);
            ChildKafka kafka = null;
            KafkaIdentities identities;
            try {
                kafka = ChildKafka.start(target.resolve("broker"), Duration.ofSeconds(90));
                // The super user creates the topics: no service may (booking-service's own attempt is refused).
                try (Admin admin = kafka.admin()) {
                    TopicAdmin.createAll(admin, Topics.DEFAULT_PREFIX);
                }
                identities = KafkaIdentities.create(kafka, Topics.DEFAULT_PREFIX);
            } catch (Exception e) {
                if (kafka != null) {
                    kafka.close();
                }
                infra.close();
                throw e;
            }
            ReliabilityStack stack = new ReliabilityStack(target, infra, kafka, identities);
            Runtime.getRuntime().addShutdownHook(new Thread(stack::close, "reliability-stack-stop"));
            shared = stack;
            for (ServiceSpec spec : ServiceSpec.ALL) {
                stack.start(spec.name());
            }
            stack.awaitAllHealthy(Duration.ofSeconds(180));
        }
        return shared;
    }

    /** Starts a service (again) on its port; the log of every start is kept. */
    public synchronized ServiceLauncher.Running start(String name) throws IOException {
        ServiceSpec spec = spec(name);
        int port = ports.computeIfAbsent(name, n -> Ports.free());
        int n = starts.merge(name, 1, Integer::sum);
        ServiceLauncher launcher = new ServiceLauncher(snapshot(spec), target.resolve("logs").resolve(name + "-" + n), javaCommand());
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("gpuaas.kafka.bootstrap-servers", kafka.bootstrapServers());
        properties.put(KafkaIdentities.CONFIG_FILES_PROPERTY, identities.writeServiceConfig(spec.principal(),
                target.resolve("kafka-logins").resolve(name + ".properties")).toString());
        properties.put("gpuaas.security.jwks-path", infra.file("jwks").toString());
        properties.put("gpuaas.pools-file", infra.file("pools").toString());
        properties.put("gpuaas.metrics-gateway.scrape.targets", String.join(",", infra.fleetUrls()));
        properties.putAll(ServiceTuning.of(name));
        ServiceLauncher.Running started = launcher.start(spec, port, properties,
                Map.of("KUBECONFIG", infra.file("kubeconfig").toString()));
        running.put(name, started);
        return started;
    }

    /** {@code kill -9}: the JVM gets no chance to flush, commit or close anything. */
    public void kill(String name) throws InterruptedException {
        ServiceLauncher.Running service = running.get(name);
        service.process().destroyForcibly().waitFor(20, TimeUnit.SECONDS);
    }

    public boolean alive(String name) {
        ServiceLauncher.Running service = running.get(name);
        return service != null && service.process().isAlive();
    }

    /** Restarts any service that is not running (a test before may have killed it), then waits for all of them. */
    public void ensureAllHealthy(Duration timeout) throws Exception {
        for (ServiceSpec spec : ServiceSpec.ALL) {
            if (!alive(spec.name())) {
                start(spec.name());
            }
        }
        awaitAllHealthy(timeout);
    }

    /**
     * Setup only (never as a check): a service that does not come UP is started once more, because another session
     * may have been rebuilding its target/classes while it loaded them (NoClassDefFoundError in its log).
     */
    public void awaitAllHealthy(Duration timeout) throws InterruptedException, IOException {
        for (ServiceSpec spec : ServiceSpec.ALL) {
            try {
                awaitHealthy(spec.name(), timeout);
            } catch (IllegalStateException e) {
                System.err.println("reliability stack: " + e.getMessage() + "; starting it once more");
                if (alive(spec.name())) {
                    kill(spec.name());
                }
                Thread.sleep(5000);
                start(spec.name());
                awaitHealthy(spec.name(), timeout);
            }
        }
    }

    /** Waits until {@code /health} answers 200 with UP; fails at once when the JVM exited. */
    public void awaitHealthy(String name, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!healthy(name)) {
            ServiceLauncher.Running service = running.get(name);
            if (!service.process().isAlive()) {
                throw new IllegalStateException(name + " exited with " + service.process().exitValue() + ", see " + service.log());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(name + " not UP after " + timeout.toSeconds() + " s: "
                        + http.get(url(name) + "/health", null).body() + ", see " + service.log());
            }
            Thread.sleep(250);
        }
    }

    public boolean healthy(String name) {
        HttpCalls.Response health = http.get(url(name) + "/health", null);
        return health.status() == 200 && health.body().contains("\"UP\"");
    }

    public String url(String name) {
        return "http://127.0.0.1:" + ports.get(name);
    }

    public Path log(String name) {
        return running.get(name).log();
    }

    public int starts(String name) {
        return starts.getOrDefault(name, 0);
    }

    public ChildKafka kafka() {
        return kafka;
    }

    /** Reads as the SRE user, writes as a topic's owner. */
    public KafkaProbe probe() {
        return new KafkaProbe(identities);
    }

    public KubernetesClient kube() {
        return infra.kubernetes().client();
    }

    /** A demo token: team-a, team-b, admin, prometheus. */
    public String token(String name) {
        return tokens.get(name);
    }

    /** The identity provider's key, to mint expired and odd tokens. */
    public TestJwt jwt() {
        return jwt;
    }

    public HttpCalls http() {
        return http;
    }

    public Path target() {
        return target;
    }

    public static List<String> serviceNames() {
        return ServiceSpec.ALL.stream().map(ServiceSpec::name).toList();
    }

    private static ServiceSpec spec(String name) {
        return ServiceSpec.ALL.stream().filter(s -> s.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no service " + name));
    }

    private Path repoRoot() {
        return target.getParent().getParent().getParent();
    }

    /**
     * A copy of the module's target/classes and classpath.txt taken at the first start: other sessions rebuild
     * service modules while the suite runs, and a JVM (re)started during a rebuild fails with NoClassDefFoundError.
     * Every start of the service then runs the same code.
     */
    private Path snapshot(ServiceSpec spec) throws IOException {
        Path root = target.resolve("snapshot");
        Path copy = root.resolve(spec.module()).resolve("target");
        if (Files.isRegularFile(copy.resolve("classpath.txt"))) {
            return root;
        }
        Path source = repoRoot().resolve(spec.module()).resolve("target");
        for (int attempt = 1; ; attempt++) {
            deleteTree(copy);
            try (var tree = Files.walk(source.resolve("classes"))) {
                for (Path p : tree.toList()) {
                    Path to = copy.resolve("classes").resolve(source.resolve("classes").relativize(p).toString());
                    if (Files.isDirectory(p)) {
                        Files.createDirectories(to);
                    } else {
                        Files.copy(p, to);
                    }
                }
                Path main = copy.resolve("classes").resolve(spec.mainClass().replace('.', '/') + ".class");
                // A build that wrote into classes in the last 15 s may still be writing: take the copy later.
                if (Files.isRegularFile(main) && newest(source.resolve("classes")) < System.currentTimeMillis() - 15_000) {
                    Files.copy(source.resolve("classpath.txt"), copy.resolve("classpath.txt"));
                    return root;
                }
            } catch (IOException midRebuild) {
                if (attempt >= 12) {
                    throw midRebuild;
                }
            }
            if (attempt >= 12) {
                throw new IllegalStateException(spec.module() + "/target/classes has no " + spec.mainClass()
                        + " or keeps changing (a build in progress?)");
            }
            try {
                Thread.sleep(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(e);
            }
        }
    }

    private static String javaCommand() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private void close() {
        for (ServiceLauncher.Running service : running.values()) {
            service.process().destroy();
        }
        for (ServiceLauncher.Running service : running.values()) {
            try {
                if (!service.process().waitFor(15, TimeUnit.SECONDS)) {
                    service.process().destroyForcibly();
                }
            } catch (InterruptedException e) {
                service.process().destroyForcibly();
            }
        }
        kafka.close();
        infra.close();
    }

    private static long newest(Path dir) throws IOException {
        try (var tree = Files.walk(dir)) {
            long newest = 0;
            for (Path p : tree.toList()) {
                newest = Math.max(newest, Files.getLastModifiedTime(p).toMillis());
            }
            return newest;
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var tree = Files.walk(dir)) {
            for (Path p : tree.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
