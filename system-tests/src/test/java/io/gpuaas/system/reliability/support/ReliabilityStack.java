package io.gpuaas.system.reliability.support;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.events.Json;
import io.gpuaas.events.TopicAdmin;
import io.gpuaas.events.Topics;
import io.gpuaas.local.LocalStack;
import io.gpuaas.local.StackOptions;
import io.gpuaas.local.kafka.KafkaIdentities;
import io.gpuaas.local.services.ServiceLauncher;
import io.gpuaas.local.services.ServiceReplica;
import io.gpuaas.local.services.ServiceSpec;
import io.gpuaas.testing.auth.TestJwt;
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
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;

/**
 * The whole system for the reliability suite, shared by every reliability IT in one test JVM (starting it costs
 * most of the suite's time): a restartable broker in its own JVM, the local stack's Kubernetes API, fleet and
 * stand-ins (its in-process broker stays unused), and {@link #REPLICAS} replicas of each of the four services as
 * child JVMs, each on a fixed ephemeral port so a killed replica comes back where its clients expect it. Replicas
 * are configured as deploy/local configures them ({@link ServiceReplica}). The broker runs with SASL and ACLs: its
 * super user creates the topics and one user per service with exactly its ACLs, and every replica logs in as its
 * service's user.
 */
public final class ReliabilityStack {

    /** Two replicas of every service is the normal case: every fault is made while a second replica runs. */
    public static final int REPLICAS = 2;

    /** Lines of a replica's log printed when it does not come UP in time. */
    private static final int LOG_TAIL = 200;

    private static ReliabilityStack shared;
    private static final String WEBHOOK_KEY = newWebhookKey();

    private final Path target;
    private final LocalStack infra;
    private final ChildKafka kafka;
    private final KafkaIdentities identities;
    private final Map<ServiceReplica, Integer> ports = new ConcurrentHashMap<>();
    private final Map<ServiceReplica, ServiceLauncher.Running> running = new ConcurrentHashMap<>();
    private final Map<ServiceReplica, Integer> starts = new ConcurrentHashMap<>();
    private final Map<String, String> tokens = new LinkedHashMap<>();
    private final AtomicInteger rotation = new AtomicInteger();
    private final TestJwt jwt;
    private final HttpCalls http = new HttpCalls();

    private ReliabilityStack(Path target, LocalStack infra, ChildKafka kafka, KafkaIdentities identities)
            throws IOException {
        this.target = target;
        this.infra = infra;
        this.kafka = kafka;
        this.identities = identities;
        JsonNode demo = Json.mapper().readTree(infra.file("tokens").toFile());
        demo.fieldNames()
                .forEachRemaining(
                        name -> tokens.put(name, demo.get(name).get("token").asText()));
        this.jwt = TestJwt.loadOrGenerate(target.resolve("jwt-private.jwk"));
    }

    /** The stack of this test JVM, started on first use and stopped when the JVM exits. */
    public static synchronized ReliabilityStack shared() throws Exception {
        if (shared == null) {
            Path root = Path.of(System.getProperty("gpuaas.repo-root", ".."))
                    .toAbsolutePath()
                    .normalize();
            Path target = root.resolve("system-tests/target/reliability");
            ServiceSnapshot.deleteTree(target);
            Files.createDirectories(target);
            // Simulated workloads go idle a second after their pods start, so the reclaimer has something to do.
            StackOptions options = new StackOptions(
                    16,
                    2,
                    Set.of(),
                    0,
                    0,
                    0,
                    0,
                    root,
                    target,
                    Duration.ofSeconds(1),
                    Duration.ofHours(1),
                    Duration.ofMillis(500),
                    Duration.ofSeconds(180),
                    false);
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
            for (ServiceReplica replica : stack.replicas()) {
                stack.start(replica);
            }
            stack.awaitAllHealthy(Duration.ofSeconds(240));
        }
        return shared;
    }

    /** Every replica of every service, first replicas first. */
    public List<ServiceReplica> replicas() {
        return ServiceReplica.of(ServiceSpec.ALL, REPLICAS);
    }

    /** The replicas of one service. */
    public List<ServiceReplica> replicas(String service) {
        return replicas().stream().filter(r -> r.spec().name().equals(service)).toList();
    }

    public ServiceReplica replica(String service, int number) {
        return new ServiceReplica(spec(service), number);
    }

    /** Starts a replica (again) on its port, configured as deploy/local configures it; every start keeps its log. */
    public synchronized ServiceLauncher.Running start(ServiceReplica replica) throws IOException {
        ServiceSpec spec = replica.spec();
        int port = ports.computeIfAbsent(replica, r -> Ports.free());
        int n = starts.merge(replica, 1, Integer::sum);
        ServiceLauncher launcher = new ServiceLauncher(
                ServiceSnapshot.of(spec, repoRoot(), target.resolve("snapshot")),
                target.resolve("logs").resolve(replica.name()).resolve("start-" + n),
                javaCommand());
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("gpuaas.kafka.bootstrap-servers", kafka.bootstrapServers());
        properties.put(
                KafkaIdentities.CONFIG_FILES_PROPERTY,
                identities
                        .writeServiceConfig(
                                spec.principal(), target.resolve("kafka-logins").resolve(spec.name() + ".properties"))
                        .toString());
        properties.put("gpuaas.security.jwks-path", infra.file("jwks").toString());
        properties.put("gpuaas.pools-file", infra.file("pools").toString());
        properties.put("gpuaas.metrics-gateway.scrape.targets", String.join(",", infra.fleetTargets()));
        properties.putAll(ServiceTuning.of(spec.name()));
        Map<String, String> env = new LinkedHashMap<>(replica.environment());
        env.put("KUBECONFIG", infra.file("kubeconfig").toString());
        if (spec.name().equals("booking-service")) {
            // Webhooks on, as in the local stack: the adversarial tests register URLs (one key for both replicas).
            env.put("GPUAAS_WEBHOOKS_ENCRYPTION_KEY", WEBHOOK_KEY);
        }
        ServiceLauncher.Running started = launcher.start(replica, port, properties, env);
        running.put(replica, started);
        return started;
    }

    /** {@code kill -9}: the JVM gets no chance to flush, commit or close anything. */
    public void kill(ServiceReplica replica) throws InterruptedException {
        running.get(replica).process().destroyForcibly().waitFor(20, TimeUnit.SECONDS);
    }

    private static String newWebhookKey() {
        byte[] key = new byte[32];
        new java.security.SecureRandom().nextBytes(key);
        return java.util.Base64.getEncoder().encodeToString(key);
    }

    /** The process id of a replica's JVM (its current start). */
    public long pid(ServiceReplica replica) {
        return running.get(replica).process().pid();
    }

    public boolean alive(ServiceReplica replica) {
        ServiceLauncher.Running service = running.get(replica);
        return service != null && service.process().isAlive();
    }

    /** Restarts any replica that is not running (a test before may have killed it), then waits for all of them. */
    public void ensureAllHealthy(Duration timeout) throws Exception {
        for (ServiceReplica replica : replicas()) {
            if (!alive(replica)) {
                start(replica);
            }
        }
        awaitAllHealthy(timeout);
    }

    /**
     * Setup only (never as a check): a replica that does not come UP is started once more, because another session
     * may have been rebuilding its target/classes while it loaded them (NoClassDefFoundError in its log).
     */
    public void awaitAllHealthy(Duration timeout) throws InterruptedException, IOException {
        for (ServiceReplica replica : replicas()) {
            try {
                awaitHealthy(replica, timeout);
            } catch (IllegalStateException e) {
                System.err.println("reliability stack: " + e.getMessage() + "; starting it once more");
                if (alive(replica)) {
                    kill(replica);
                }
                Thread.sleep(5000);
                start(replica);
                awaitHealthy(replica, timeout);
            }
        }
    }

    /** Waits until {@code /health} answers 200 with UP; fails at once when the JVM exited. */
    public void awaitHealthy(ServiceReplica replica, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!healthy(replica)) {
            ServiceLauncher.Running service = running.get(replica);
            if (!service.process().isAlive()) {
                throw new IllegalStateException(
                        replica + " exited with " + service.process().exitValue() + ", see " + service.log());
            }
            if (System.nanoTime() > deadline) {
                String details = healthDetails(replica);
                printLogTail(replica, service.log());
                throw new IllegalStateException(
                        replica + " not UP after " + timeout.toSeconds() + " s: " + details + ", see " + service.log());
            }
            Thread.sleep(250);
        }
    }

    /**
     * {@code /health} as {@link #healthy} reads it, but with its details, asked with the admin token (anonymous callers
     * see the status alone, which does not say what is down): the readiness indicators, {@code components} with each
     * component's state, caught-up flag, restarts and last failure, and {@code kafka}; the liveness ones too.
     */
    public String healthDetails(ServiceReplica replica) {
        HttpCalls.Response r = http.get(url(replica) + "/health", token("admin"));
        return "/health " + r.status() + " " + r.body() + (r.error() == null ? "" : " " + r.error());
    }

    /**
     * The end of a replica's log on stderr, which the test report keeps: CI's clone, and target/ with the log, is gone
     * once the run ends, so a replica that did not come UP would otherwise leave no trace of why. The Kafka client's
     * "connection could not be established" lines, one per client every second while the broker is away, are left out.
     */
    private static void printLogTail(ServiceReplica replica, Path log) {
        try {
            List<String> lines = Files.readAllLines(log).stream()
                    .filter(l -> !l.contains("o.apache.kafka.clients.NetworkClient"))
                    .toList();
            List<String> tail = lines.subList(Math.max(0, lines.size() - LOG_TAIL), lines.size());
            System.err.println("---- " + replica + ": last " + tail.size() + " lines of " + log
                    + " (without NetworkClient connection warnings) ----");
            tail.forEach(System.err::println);
            System.err.println("---- end of " + log + " ----");
        } catch (IOException | RuntimeException e) {
            System.err.println("cannot read " + log + ": " + e);
        }
    }

    /**
     * Waits until every metrics-gateway replica's usage API answers something else than 503: its ledger feed replays
     * without gating readiness, and answers 503 {@code LEDGER_CATCHING_UP} until it caught up.
     */
    public void awaitLedgerCaughtUp(Duration timeout) throws InterruptedException {
        String token = token("team-a");
        for (ServiceReplica replica : replicas("metrics-gateway")) {
            long deadline = System.nanoTime() + timeout.toNanos();
            String url = url(replica) + "/api/v1/usage?from=2026-11-01&to=2026-11-02";
            for (HttpCalls.Response r = http.get(url, token); r.status() == 503; r = http.get(url, token)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            replica + "'s ledger not caught up after " + timeout.toSeconds() + " s: " + r.body());
                }
                Thread.sleep(250);
            }
        }
    }

    public boolean healthy(ServiceReplica replica) {
        HttpCalls.Response health = http.get(url(replica) + "/health", null);
        return health.status() == 200 && health.body().contains("\"UP\"");
    }

    /** Every replica whose /health is not UP (dead ones included). */
    public List<ServiceReplica> unhealthy() {
        return replicas().stream().filter(r -> !healthy(r)).toList();
    }

    public String url(ServiceReplica replica) {
        return "http://127.0.0.1:" + ports.get(replica);
    }

    /**
     * The URL of the next running replica of {@code service}, in turn, as a Service in front of the pods would pick
     * one: requests that any replica may answer go to all of them. A killed replica is left out until it restarts.
     */
    public String url(String service) {
        List<ServiceReplica> live =
                replicas(service).stream().filter(this::alive).toList();
        List<ServiceReplica> pool = live.isEmpty() ? replicas(service) : live;
        return url(pool.get(Math.floorMod(rotation.getAndIncrement(), pool.size())));
    }

    public Path log(ServiceReplica replica) {
        return running.get(replica).log();
    }

    public int starts(ServiceReplica replica) {
        return starts.getOrDefault(replica, 0);
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
        return ServiceSpec.ALL.stream()
                .filter(s -> s.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no service " + name));
    }

    private Path repoRoot() {
        return target.getParent().getParent().getParent();
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
}
