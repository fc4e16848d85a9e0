package io.gpuaas.local;

import io.gpuaas.local.services.ServiceProperty;
import io.gpuaas.local.services.ServiceReplica;
import io.gpuaas.local.services.ServiceSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Command-line options of the local stack. Ports default to the documented fixed ones; tests pass 0 for
 * ephemeral ports (Kafka, API server, exporters) so they never collide with a running stack.
 *
 * @param gpus         physical GPUs in the simulated fleet
 * @param tenants      demo tenants (team-a, team-b, team-c, …)
 * @param services     services to start (empty with --no-services)
 * @param kafkaPort    broker port, 0 = ephemeral
 * @param kubePort     API server port, 0 = ephemeral
 * @param fleetPort    first dcgm-exporter port, 0 = ephemeral
 * @param servicePort  port of booking-service; the others follow (+1, +2, +3); 0 = a free port for each
 * @param repoRoot     repository root (modules' target folders are found from here)
 * @param targetDir    where kubeconfig, tokens, pools.json and logs go
 * @param busy         mean length of a busy phase
 * @param idle         mean length of an idle phase
 * @param tick         period of the simulation loop
 * @param readyTimeout how long to wait for every /health
 * @param help         print usage and exit
 * @param serviceProperties configuration overrides passed to the service JVMs, in the order given
 * @param demoWorkloads seed the demo RayCluster and InferenceService
 * @param replicas     JVMs per selected service (1..9); replica n of a service listens on its port + 10·(n−1)
 * @param flexibleGpus GPUs of the flexible pool h200-flex, on top of {@code gpus} (0: no flexible pool)
 * @param migDelay     how long the MIG manager stand-in keeps a requested config pending before applying it
 */
public record StackOptions(
        int gpus,
        int tenants,
        Set<String> services,
        int kafkaPort,
        int kubePort,
        int fleetPort,
        int servicePort,
        Path repoRoot,
        Path targetDir,
        Duration busy,
        Duration idle,
        Duration tick,
        Duration readyTimeout,
        boolean help,
        List<ServiceProperty> serviceProperties,
        boolean demoWorkloads,
        int replicas,
        int flexibleGpus,
        Duration migDelay) {

    public static final String USAGE = """
            usage: deploy/local/up [options]
              --gpus N             simulated H200s, N >= 2 (default 16: 8 whole + 8 MIG-partitioned)
              --flexible-gpus N    H200s of the flexible pool h200-flex on top of --gpus, 8 to a node,
                                   MIG-disabled at start (default 8; 0 = no flexible pool)
              --mig-delay S        seconds the MIG manager stand-in keeps a new nvidia.com/mig.config
                                   pending before applying it (default 3; 0 = at the next tick)
              --tenants N          demo tenants team-a, team-b, team-c, ... (default 2)
              --no-services        start only Kafka, the Kubernetes API, the fleet and the stand-ins
              --only a,b           start only these services (booking-service, quota-projector,
                                   idle-reclaimer, metrics-gateway)
              --kafka-port P       broker port (default 9092; 0 = ephemeral)
              --kube-port P        in-memory Kubernetes API port (default 6443; 0 = ephemeral)
              --fleet-port P       first dcgm-exporter port, one per node (default 9400; 0 = ephemeral)
              --service-port P     booking-service port; the others use P+1..P+3 (default 8080)
              --replicas N         JVMs per service, 1..9 (default 1); replica n listens on the
                                   service's port + 10*(n-1): booking-service 8080 and 8090, ...
              --busy-seconds S     mean busy phase of a simulated workload (default 240)
              --idle-seconds S     mean idle phase of a simulated workload (default 300)
              --ready-timeout S    seconds to wait for every /health (default 180)
              --target-dir DIR     where kubeconfig, tokens, pools.json and logs go (default deploy/local/target)
              --repo-root DIR      repository whose modules' target folders hold the services (default: this one)
              --service-property [SERVICE:]KEY=VALUE
                                   configuration override for one service (or all without SERVICE:), as a
                                   system property; repeatable, e.g.
                                   --service-property idle-reclaimer:gpuaas.reclaimer.policy.window=30s
              --no-demo-workloads  do not seed the demo RayCluster team-a/demo-ray and InferenceService team-b/demo-llm
              --help               this text
            Port 0 means ephemeral; --service-port 0 gives each replica of each service its own free port.
            """;

    /** GPUs of the flexible pool unless {@code --flexible-gpus} says otherwise: one node of 8 H200s. */
    public static final int DEFAULT_FLEXIBLE_GPUS = 8;

    /** The MIG manager stand-in's delay unless {@code --mig-delay} says otherwise. */
    public static final Duration DEFAULT_MIG_DELAY = Duration.ofSeconds(3);

    /**
     * The options as they were before overrides, the demo-workload switch, replicas and the flexible pool: none, on,
     * one, and the default flexible pool (8 GPUs, a config applied 3 s after it is requested).
     */
    public StackOptions(
            int gpus,
            int tenants,
            Set<String> services,
            int kafkaPort,
            int kubePort,
            int fleetPort,
            int servicePort,
            Path repoRoot,
            Path targetDir,
            Duration busy,
            Duration idle,
            Duration tick,
            Duration readyTimeout,
            boolean help) {
        this(
                gpus,
                tenants,
                services,
                kafkaPort,
                kubePort,
                fleetPort,
                servicePort,
                repoRoot,
                targetDir,
                busy,
                idle,
                tick,
                readyTimeout,
                help,
                List.of(),
                true,
                1,
                DEFAULT_FLEXIBLE_GPUS,
                DEFAULT_MIG_DELAY);
    }

    /** The options before the flexible pool: none with the default flexible pool. */
    public StackOptions(
            int gpus,
            int tenants,
            Set<String> services,
            int kafkaPort,
            int kubePort,
            int fleetPort,
            int servicePort,
            Path repoRoot,
            Path targetDir,
            Duration busy,
            Duration idle,
            Duration tick,
            Duration readyTimeout,
            boolean help,
            List<ServiceProperty> serviceProperties,
            boolean demoWorkloads,
            int replicas) {
        this(
                gpus,
                tenants,
                services,
                kafkaPort,
                kubePort,
                fleetPort,
                servicePort,
                repoRoot,
                targetDir,
                busy,
                idle,
                tick,
                readyTimeout,
                help,
                serviceProperties,
                demoWorkloads,
                replicas,
                DEFAULT_FLEXIBLE_GPUS,
                DEFAULT_MIG_DELAY);
    }

    public StackOptions {
        serviceProperties = List.copyOf(serviceProperties);
        if (replicas < 1 || replicas > ServiceReplica.MAX_REPLICAS) {
            throw new IllegalArgumentException(
                    "--replicas needs 1.." + ServiceReplica.MAX_REPLICAS + ", got " + replicas);
        }
    }

    public static StackOptions defaults() {
        Path root = Path.of(System.getProperty("gpuaas.local.repo-root", "."))
                .toAbsolutePath()
                .normalize();
        Path target = Path.of(System.getProperty(
                "gpuaas.local.target-dir", root.resolve("deploy/local/target").toString()));
        Set<String> all =
                ServiceSpec.ALL.stream().map(ServiceSpec::name).collect(Collectors.toCollection(LinkedHashSet::new));
        return new StackOptions(
                16,
                2,
                all,
                9092,
                6443,
                9400,
                8080,
                root,
                target.toAbsolutePath().normalize(),
                Duration.ofSeconds(240),
                Duration.ofSeconds(300),
                Duration.ofMillis(500),
                Duration.ofSeconds(180),
                false);
    }

    public static StackOptions parse(String... args) {
        StackOptions o = defaults();
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if ("--help".equals(flag) || "-h".equals(flag)) {
                o = o.with(b -> b.help = true);
                continue;
            }
            if ("--no-services".equals(flag)) {
                o = o.with(b -> b.services = Set.of());
                continue;
            }
            if ("--no-demo-workloads".equals(flag)) {
                o = o.with(b -> b.demoWorkloads = false);
                continue;
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("missing value for " + flag + "\n" + USAGE);
            }
            String value = args[++i];
            o = switch (flag) {
                case "--gpus" -> o.with(b -> b.gpus = number(flag, value));
                case "--tenants" -> o.with(b -> b.tenants = number(flag, value));
                case "--only" -> o.with(b -> b.services = only(value));
                case "--kafka-port" -> o.with(b -> b.kafkaPort = number(flag, value));
                case "--kube-port" -> o.with(b -> b.kubePort = number(flag, value));
                case "--fleet-port" -> o.with(b -> b.fleetPort = number(flag, value));
                case "--service-port" -> o.with(b -> b.servicePort = number(flag, value));
                case "--replicas" -> o.with(b -> b.replicas = number(flag, value));
                case "--flexible-gpus" -> o.with(b -> b.flexibleGpus = number(flag, value));
                case "--mig-delay" -> o.with(b -> b.migDelay = Duration.ofSeconds(number(flag, value)));
                case "--busy-seconds" -> o.with(b -> b.busy = Duration.ofSeconds(number(flag, value)));
                case "--idle-seconds" -> o.with(b -> b.idle = Duration.ofSeconds(number(flag, value)));
                case "--ready-timeout" -> o.with(b -> b.readyTimeout = Duration.ofSeconds(number(flag, value)));
                case "--target-dir" ->
                    o.with(b -> b.targetDir = Path.of(value).toAbsolutePath().normalize());
                case "--repo-root" ->
                    o.with(b -> b.repoRoot = Path.of(value).toAbsolutePath().normalize());
                case "--service-property" ->
                    o.with(b -> b.serviceProperties.add(ServiceProperty.parse(value, knownServices())));
                default -> throw new IllegalArgumentException("unknown option " + flag + "\n" + USAGE);
            };
        }
        return o;
    }

    private static Set<String> knownServices() {
        return ServiceSpec.ALL.stream().map(ServiceSpec::name).collect(Collectors.toCollection(LinkedHashSet::new));
    }

    private static Set<String> only(String value) {
        Set<String> known = knownServices();
        Set<String> chosen = Arrays.stream(value.split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .collect(Collectors.toCollection(LinkedHashSet::new));
        chosen.stream().filter(s -> !known.contains(s)).findFirst().ifPresent(s -> {
            throw new IllegalArgumentException("--only: unknown service " + s + "; known: " + known);
        });
        return chosen;
    }

    private static int number(String flag, String value) {
        try {
            int number = Integer.parseInt(value);
            if (number < 0) {
                throw new NumberFormatException();
            }
            return number;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + " needs a non-negative whole number, got '" + value + "'");
        }
    }

    /** Services to start, in the fixed order. */
    public List<ServiceSpec> selectedServices() {
        return ServiceSpec.ALL.stream().filter(s -> services.contains(s.name())).toList();
    }

    /** Every JVM to start: each selected service {@link #replicas} times, first replicas first. */
    public List<ServiceReplica> selectedReplicas() {
        return ServiceReplica.of(selectedServices(), replicas);
    }

    /** The overrides for {@code serviceName}, later ones winning over earlier ones for the same key. */
    public Map<String, String> propertiesFor(String serviceName) {
        Map<String, String> properties = new LinkedHashMap<>();
        serviceProperties.stream()
                .filter(p -> p.appliesTo(serviceName))
                .forEach(p -> properties.put(p.key(), p.value()));
        return properties;
    }

    private StackOptions with(java.util.function.Consumer<Builder> change) {
        Builder b = new Builder(this);
        change.accept(b);
        return b.build();
    }

    private static final class Builder {
        int gpus;
        int tenants;
        Set<String> services;
        int kafkaPort;
        int kubePort;
        int fleetPort;
        int servicePort;
        Path repoRoot;
        Path targetDir;
        Duration busy;
        Duration idle;
        Duration tick;
        Duration readyTimeout;
        boolean help;
        List<ServiceProperty> serviceProperties;
        boolean demoWorkloads;
        int replicas;
        int flexibleGpus;
        Duration migDelay;

        Builder(StackOptions o) {
            gpus = o.gpus;
            tenants = o.tenants;
            services = o.services;
            kafkaPort = o.kafkaPort;
            kubePort = o.kubePort;
            fleetPort = o.fleetPort;
            servicePort = o.servicePort;
            repoRoot = o.repoRoot;
            targetDir = o.targetDir;
            busy = o.busy;
            idle = o.idle;
            tick = o.tick;
            readyTimeout = o.readyTimeout;
            help = o.help;
            serviceProperties = new ArrayList<>(o.serviceProperties);
            demoWorkloads = o.demoWorkloads;
            replicas = o.replicas;
            flexibleGpus = o.flexibleGpus;
            migDelay = o.migDelay;
        }

        StackOptions build() {
            return new StackOptions(
                    gpus,
                    tenants,
                    Set.copyOf(services),
                    kafkaPort,
                    kubePort,
                    fleetPort,
                    servicePort,
                    repoRoot,
                    targetDir,
                    busy,
                    idle,
                    tick,
                    readyTimeout,
                    help,
                    serviceProperties,
                    demoWorkloads,
                    replicas,
                    flexibleGpus,
                    migDelay);
        }
    }
}
