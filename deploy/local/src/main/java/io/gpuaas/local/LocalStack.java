package io.gpuaas.local;

import io.gpuaas.events.KafkaPrincipal;
import io.gpuaas.events.TopicAdmin;
import io.gpuaas.events.Topics;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.local.auth.DemoTokens;
import io.gpuaas.local.fleet.DcgmTextWriter;
import io.gpuaas.local.fleet.DeviceAllocator;
import io.gpuaas.local.fleet.FleetLayout;
import io.gpuaas.local.fleet.FleetServer;
import io.gpuaas.local.fleet.FleetState;
import io.gpuaas.local.fleet.UtilizationModel;
import io.gpuaas.local.k8s.ClusterSeeder;
import io.gpuaas.local.k8s.DemoWorkloads;
import io.gpuaas.local.k8s.Tenant;
import io.gpuaas.local.kafka.KafkaIdentities;
import io.gpuaas.local.kueue.KueueStandIn;
import io.gpuaas.local.mig.MigManagerStandIn;
import io.gpuaas.local.services.ServiceLauncher;
import io.gpuaas.local.services.ServiceReplica;
import io.gpuaas.local.services.ServiceSpec;
import io.gpuaas.testing.k8s.KubernetesApi;
import io.gpuaas.testing.kafka.EmbeddedKafka;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded default: a KRaft broker with every topic, an in-memory Kubernetes API seeded like a GPU cluster
 * with Kueue, the simulated dcgm-exporters, the Kueue/KubeRay/KServe stand-ins, and the four services in their own
 * JVMs. The broker starts in the background while the API server is seeded, since it takes longest.
 *
 * <p>Kafka runs as in production: SASL on its listener and ACLs enforced. The stack's super user creates the topics
 * and one user per service with exactly its {@link io.gpuaas.events.KafkaAccess} ACLs; each service logs in as its
 * own user, and operators read with the read-only SRE user ({@code kcat-sre.conf}).
 */
public final class LocalStack implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LocalStack.class);

    private final StackOptions options;
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private EmbeddedKafka kafka;
    private KafkaIdentities identities;
    private KubernetesApi kube;
    private FleetServer fleet;
    private ServiceLauncher services;
    private List<String> topics = List.of();
    private final Map<String, Path> files = new LinkedHashMap<>();

    private LocalStack(StackOptions options) {
        this.options = options;
    }

    /** Starts everything but the services; call {@link #startServices()} next. */
    public static LocalStack start(StackOptions options) throws Exception {
        // Refuse before starting anything when a selected service has not been built.
        ServiceLauncher check =
                new ServiceLauncher(options.repoRoot(), options.targetDir().resolve("logs"), javaCommand());
        for (ServiceSpec spec : options.selectedServices()) {
            if (!check.built(spec)) {
                throw new IllegalStateException(spec.module() + " is not built: run ./mvnw -B install -DskipTests from "
                        + options.repoRoot() + ", or leave it out with --only/--no-services");
            }
        }
        LocalStack stack = new LocalStack(options);
        try {
            stack.startInfrastructure();
            return stack;
        } catch (Exception | Error e) {
            stack.close();
            throw e;
        }
    }

    private void startInfrastructure() throws Exception {
        FleetLayout layout = FleetLayout.of(options.gpus(), options.flexibleGpus());
        List<Tenant> tenants = Tenant.demo(options.tenants());
        Path target = options.targetDir();
        Files.createDirectories(target.resolve("logs"));
        // Own threads: on two cores the common pool has one, which would run these one after the other.
        ExecutorService startup = Executors.newFixedThreadPool(2);
        CompletableFuture<EmbeddedKafka> broker = CompletableFuture.supplyAsync(this::startKafka, startup);
        // RSA key generation takes seconds on a busy machine: overlap it with the broker and the API server.
        CompletableFuture<?> tokens = CompletableFuture.runAsync(() -> DemoTokens.write(target, tenants), startup);
        try {
            kube = KubernetesApi.start(options.kubePort());
            closeables.add(kube);
            files.put("kubeconfig", kube.writeKubeconfig(target.resolve("kubeconfig")));
            PoolCatalog pools = layout.pools();
            new ClusterSeeder(kube.client()).seed(layout, pools, tenants);
            if (options.demoWorkloads()) {
                DemoWorkloads.seed(kube.client());
            }
            LOG.info(
                    "kubernetes API on {} seeded: {} nodes, {} pools, {} tenants",
                    kube.url(),
                    layout.nodes().size(),
                    pools.pools().size(),
                    tenants.size());
            files.put("pools", Files.writeString(target.resolve("pools.json"), pools.toJson()));
            FleetState state = new FleetState(layout);
            DeviceAllocator allocator = new DeviceAllocator(kube.client(), state);
            UtilizationModel model = new UtilizationModel(options.busy(), options.idle());
            fleet = new FleetServer(
                    state, options.fleetPort(), new DcgmTextWriter(model), allocator::attributions, Clock.systemUTC());
            closeables.add(fleet);
            Optional<MigManagerStandIn> migManager = layout.flexibleNodes().isEmpty()
                    ? Optional.empty()
                    : Optional.of(new MigManagerStandIn(
                            kube.client(), state, allocator::gpusInUse, options.migDelay(), Clock.systemUTC()));
            SimulationLoop loop = new SimulationLoop(
                    kube.client(), allocator, KueueStandIn.SHIPPED_EXCLUDED_RESOURCE_PREFIXES, migManager);
            closeables.add(loop);
            loop.start(options.tick());
            LOG.info("simulated dcgm-exporters on {}", fleet.urls());
            tokens.join();
            files.put("jwks", target.resolve("jwks.json"));
            files.put("tokens", target.resolve("demo-tokens.json"));
            LOG.info("pools.json, jwks.json and demo-tokens.json written to {}", target);
        } finally {
            // Even when seeding failed, the broker must be joined so close() can stop it.
            kafka = broker.join();
            closeables.addFirst(kafka);
            startup.shutdown();
        }
        files.put("kafka-credentials", identities.writeCredentials(target.resolve("kafka-credentials.json")));
        files.put("kcat-sre", identities.writeKcatConfig(KafkaPrincipal.SRE, target.resolve("kcat-sre.conf")));
        LOG.info(
                "kafka-credentials.json and kcat-sre.conf (read-only user {}) written to {}",
                KafkaPrincipal.SRE.userName(),
                target);
    }

    private EmbeddedKafka startKafka() {
        // The SRE user may also log in with PLAIN: kcat-sre.conf needs it (see KafkaIdentities#writeKcatConfig).
        EmbeddedKafka broker = EmbeddedKafka.builder()
                .port(options.kafkaPort())
                // Mode 700: the log segments hold every record, readable there past any ACL.
                .dataDir(PrivateFiles.directory(options.targetDir().resolve("kafka-data")))
                .plainUser(KafkaPrincipal.SRE.userName())
                .loopbackOnly()
                .start();
        try (Admin admin = broker.admin()) {
            // The super user creates the topics: no service may create or delete a contract topic.
            TopicAdmin.createAll(admin, Topics.DEFAULT_PREFIX);
            topics = Topics.all().stream()
                    .map(t -> t.name(Topics.DEFAULT_PREFIX))
                    .toList();
            identities = KafkaIdentities.create(broker, Topics.DEFAULT_PREFIX);
            LOG.info(
                    "kafka on {} (SASL, ACLs) with topics {} and users {}",
                    broker.bootstrapServers(),
                    topics,
                    Arrays.stream(KafkaPrincipal.values())
                            .map(KafkaPrincipal::userName)
                            .toList());
            return broker;
        } catch (RuntimeException e) {
            broker.close();
            throw e;
        }
    }

    /** Starts every replica of the selected services and waits until each /health is UP. */
    public void startServices() throws Exception {
        services = new ServiceLauncher(options.repoRoot(), options.targetDir().resolve("logs"), javaCommand());
        closeables.add(services);
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("gpuaas.kafka.bootstrap-servers", kafka.bootstrapServers());
        properties.put("gpuaas.security.jwks-path", files.get("jwks").toString());
        properties.put("gpuaas.pools-file", files.get("pools").toString());
        properties.put("gpuaas.metrics-gateway.scrape.targets", String.join(",", fleet.targets()));
        // One webhook key per stack, shared by booking-service's replicas (in the environment, not on the command
        // line where ps shows it); receivers on this machine are allowed.
        String webhookKey = newWebhookKey();
        for (ServiceReplica replica : options.selectedReplicas()) {
            ServiceSpec spec = replica.spec();
            Map<String, String> own = new LinkedHashMap<>(properties);
            // Replicas of one service share its Kafka user, as the pods of one Deployment share its Secret.
            Path login = identities.writeServiceConfig(
                    spec.principal(),
                    options.targetDir().resolve("kafka-logins").resolve(spec.name() + ".properties"));
            own.put(KafkaIdentities.CONFIG_FILES_PROPERTY, login.toString());
            if (spec.principal() == KafkaPrincipal.BOOKING_SERVICE) {
                own.put("gpuaas.webhooks.local-hosts", "127.0.0.1,localhost");
                // The dashboard's Resume goes to idle-reclaimer's documented port (8082 by default), its usage reads
                // to metrics-gateway's (8083); with free ports (--service-port 0) their ports are not known in
                // advance and Resume and usage answer 503.
                if (options.servicePort() != 0) {
                    own.put("gpuaas.booking.reclaimer-url", localUrl(options, KafkaPrincipal.IDLE_RECLAIMER));
                    own.put("gpuaas.booking.ledger-url", localUrl(options, KafkaPrincipal.METRICS_GATEWAY));
                }
            }
            own.putAll(options.propertiesFor(spec.name()));
            Map<String, String> env = new LinkedHashMap<>(replica.environment());
            env.put("KUBECONFIG", files.get("kubeconfig").toString());
            if (spec.principal() == KafkaPrincipal.BOOKING_SERVICE) {
                env.put("GPUAAS_WEBHOOKS_ENCRYPTION_KEY", webhookKey);
            }
            services.start(replica, servicePort(replica), own, env);
        }
        services.awaitHealthy(options.readyTimeout());
    }

    /** The loopback URL of the service running as {@code principal} at its documented port. */
    private static String localUrl(StackOptions options, KafkaPrincipal principal) {
        int offset = ServiceSpec.ALL.stream()
                .filter(s -> s.principal() == principal)
                .findFirst()
                .orElseThrow()
                .portOffset();
        return "http://127.0.0.1:" + (options.servicePort() + offset);
    }

    /** A fresh AES-256 key for the webhook secrets of this run (registrations do not outlive the stack's broker). */
    private static String newWebhookKey() {
        byte[] key = new byte[32];
        new java.security.SecureRandom().nextBytes(key);
        return java.util.Base64.getEncoder().encodeToString(key);
    }

    /** The documented port, or with {@code --service-port 0} a port free right now (tests run beside a stack). */
    private int servicePort(ServiceReplica replica) throws IOException {
        if (options.servicePort() != 0) {
            return replica.port(options.servicePort() + replica.spec().portOffset());
        }
        // Micronaut would pick a random port itself, but then nobody outside the JVM would know it.
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** The started replica called {@code name} ({@link ServiceReplica#name()}: the service's name for its first). */
    public ServiceLauncher.Running service(String name) {
        return runningServices().stream()
                .filter(r -> r.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("service " + name + " is not running"));
    }

    public String bootstrapServers() {
        return kafka.bootstrapServers();
    }

    /** The stack's Kafka users: each service's, the SRE's and the super user's client properties. */
    public KafkaIdentities kafkaIdentities() {
        return identities;
    }

    public String kubernetesUrl() {
        return kube.url();
    }

    public KubernetesApi kubernetes() {
        return kube;
    }

    public List<String> fleetUrls() {
        return fleet.urls();
    }

    /** metrics-gateway's {@code scrape.targets}: {@code <node>=<url>} per simulated node. */
    public List<String> fleetTargets() {
        return fleet.targets();
    }

    public List<String> topics() {
        return topics;
    }

    public Path file(String name) {
        return Optional.ofNullable(files.get(name)).orElseThrow(() -> new IllegalArgumentException("no file " + name));
    }

    public List<ServiceLauncher.Running> runningServices() {
        return services == null ? List.of() : services.running();
    }

    /** Stops services first (they still flush to Kafka), then the simulation, the API server and the broker. */
    @Override
    public void close() {
        for (AutoCloseable closeable : closeables.reversed()) {
            try {
                closeable.close();
            } catch (Exception e) {
                System.err.println("local stack: " + closeable + " did not close cleanly: " + e);
            }
        }
        closeables.clear();
    }

    private static String javaCommand() {
        return ProcessHandle.current()
                .info()
                .command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    public static void main(String[] args) throws Exception {
        long started = System.nanoTime();
        StackOptions options;
        try {
            options = StackOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        if (options.help()) {
            System.out.print(StackOptions.USAGE);
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        LocalStack stack;
        try {
            stack = start(options);
        } catch (Exception e) {
            System.err.println("gpuaas local stack failed to start: " + e.getMessage());
            System.exit(1);
            return;
        }
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            System.out.println("gpuaas local stack stopping");
                            stack.close();
                            System.out.println("gpuaas local stack stopped");
                            stopped.countDown();
                        },
                        "local-stack-shutdown"));
        try {
            stack.startServices();
        } catch (Exception e) {
            System.err.println("gpuaas local stack failed to start: " + e.getMessage());
            System.exit(1);
            return;
        }
        System.out.print(ReadyBanner.render(stack, options, (System.nanoTime() - started) / 1e9));
        System.out.flush();
        stopped.await();
    }
}
