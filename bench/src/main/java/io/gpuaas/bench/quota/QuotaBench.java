package io.gpuaas.bench.quota;

import io.gpuaas.bench.BenchOptions;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.events.TopicAdmin;
import io.gpuaas.events.Topics;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.kit.config.KafkaSettings;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.quota.QuotaProjector;
import io.gpuaas.quota.config.LeaderElectionSettings;
import io.gpuaas.quota.config.QuotaSettings;
import io.gpuaas.quota.k8s.Kind;
import io.gpuaas.quota.k8s.NominalQuota;
import io.gpuaas.quota.model.FlavorResource;
import io.gpuaas.testing.k8s.KubernetesApi;
import io.gpuaas.testing.kafka.EmbeddedKafka;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * quota-projector with 1,000 tenants, in one JVM: a real KRaft broker, the fabric8 CRUD mock API server, the real
 * projector. (1) Booking boundary → ClusterQueue change as seen by a separate watching client, for window starts
 * spread over 20 s and for a burst of starts on the same instant, beside the raw create → watch-event latency of
 * the same API server (the floor). (2) Workload status change → its quota-state record, beside the raw Kafka
 * produce → consume round trip (the floor), in {@link WorkloadStateBench}.
 *
 * <p>Usage: {@code QuotaBench [--tenants 1000] [--burst 200] [--workloads 300] [--writers 8] [--profiles true]
 * [--out bench/results/quota.md]}
 */
public final class QuotaBench {

    /** Seconds over which the spread boundaries fall (--spread; smaller in the suite's --quick mode). */
    private static int spreadSeconds = 20;
    /** Length of each spread booking window in seconds (--window). */
    private static int windowSeconds = 15;


    static final FlavorResource GPU = new FlavorResource("h200", "nvidia.com/gpu");

    private QuotaBench() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = BenchOptions.parse(args);
        int tenants = Integer.parseInt(opts.getOrDefault("tenants", "1000"));
        int burst = Integer.parseInt(opts.getOrDefault("burst", "200"));
        int workloads = Integer.parseInt(opts.getOrDefault("workloads", "300"));
        Path out = Path.of(opts.getOrDefault("out", "bench/results/quota.md"));
        spreadSeconds = Integer.parseInt(opts.getOrDefault("spread", "20"));
        windowSeconds = Integer.parseInt(opts.getOrDefault("window", "15"));
        List<Latencies> boundary = new ArrayList<>();
        List<Latencies> state;
        List<String> loads = new ArrayList<>();
        try (EmbeddedKafka broker = EmbeddedKafka.start(); KubernetesApi api = KubernetesApi.start()) {
            String prefix = "bench.gpuaas.";
            try (Admin admin = broker.admin()) {
                TopicAdmin.createAll(admin, prefix);
            }
            // One set of clients for the projector and the bench's own producers and readers, so the super user's:
            // this bench measures latency, the projector's least privilege is proven by quota-projector's ITs.
            Map<String, String> superUser = new java.util.HashMap<>();
            broker.clientProperties().forEach((k, v) -> superUser.put(k, String.valueOf(v)));
            superUser.remove("bootstrap.servers");
            KafkaClients kafka = new KafkaClients(new KafkaSettings(broker.bootstrapServers(), prefix, superUser));
            KubernetesClient client = api.client();
            for (int i = 0; i < tenants; i++) {
                String t = tenant(i);
                client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(t)
                        .addToLabels("gpuaas.io/tenant", t).endMetadata().build()).create();
            }
            PrometheusRegistry registry = new PrometheusRegistry();
            QuotaSettings d = QuotaSettings.defaults();
            QuotaSettings settings = new QuotaSettings(d.cohortName(), d.localQueueName(), d.allowBorrowing(),
                    Boolean.parseBoolean(opts.getOrDefault("profiles", "true")), d.drainTimeout(),
                    Integer.parseInt(opts.getOrDefault("writers", Integer.toString(d.writers()))), d.resync());
            loads.add("settings: writers=" + settings.writers() + ", hardwareProfiles=" + settings.hardwareProfiles());
            QuotaProjector projector = new QuotaProjector(api.newClient(), kafka, settings,
                    LeaderElectionSettings.disabled(), catalog(tenants), registry, Clock.systemUTC());
            projector.start();
            ClusterQueueWatch watch = new ClusterQueueWatch(api.newClient());
            try (KafkaProducer<String, Booking> bookings = new KafkaProducer<>(kafka.producerConfig("bench"),
                    new StringSerializer(), Topics.BOOKINGS.valueSerde().serializer())) {
                boundary.add(rawCreateFloor(client, watch, 200));
                loads.add("before boundaries: " + loadAverage());
                boundary.add(rawScheduled(client, watch, tenants));
                boundary.addAll(staggered(bookings, kafka, watch, tenants, 0));
                loads.add("after spread boundaries: " + loadAverage());
                boundary.addAll(aligned(bookings, kafka, watch, burst));
            }
            state = new WorkloadStateBench(client, kafka, broker).run(tenants, workloads);
            loads.add("after workloads: " + loadAverage());
            loads.add("projector counters: " + counters(registry));
            projector.close();
            watch.close();
        }
        String report = Report.render(tenants, burst, workloads, boundary, state, String.join(" ", args), loads);
        System.out.println(report);
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, report);
    }

    static String tenant(int i) {
        return String.format("tenant-%04d", i);
    }

    /** Enough GPUs that every tenant's booking fits: 10,000 H200s, as in the design's scale targets. */
    static PoolCatalog catalog(int tenants) {
        return new PoolCatalog(List.of(new Pool("h200", "h200", "nvidia.com/gpu", Math.max(10_000, tenants * 4),
                "NVIDIA H200", null)));
    }

    /** Starts spread evenly over {@code spreadSeconds} (default 20 s: 50 per second for 1,000 tenants), windows 15 s. */
    private static List<Latencies> staggered(KafkaProducer<String, Booking> producer, KafkaClients kafka,
                                             ClusterQueueWatch watch, int tenants, int offset) throws Exception {
        Instant first = Instant.now().plusSeconds(8);
        long stepMicros = spreadSeconds * 1_000_000L / tenants;
        Map<String, Instant[]> windows = new ConcurrentHashMap<>();
        for (int i = 0; i < tenants; i++) {
            Instant start = first.plusNanos(i * stepMicros * 1000);
            Instant end = start.plusSeconds(windowSeconds);
            windows.put("gpuaas-" + tenant(offset + i), new Instant[] {start, end});
            send(producer, kafka, "stag-" + i, tenant(offset + i), 2, start, end);
        }
        producer.flush();
        waitUntil(first.plusSeconds(windowSeconds + spreadSeconds + 5));
        return List.of(watch.startLatencies("boundary → ClusterQueue, starts spread over " + spreadSeconds + " s", windows),
                watch.endLatencies("boundary → ClusterQueue drained, ends spread over " + spreadSeconds + " s", windows));
    }

    /** {@code count} tenants whose windows start on the same instant: the worst case, many writes at once. */
    private static List<Latencies> aligned(KafkaProducer<String, Booking> producer, KafkaClients kafka,
                                           ClusterQueueWatch watch, int count) throws Exception {
        watch.reset();
        Instant start = Instant.now().plusSeconds(6);
        Instant end = start.plusSeconds(8);
        Map<String, Instant[]> windows = new ConcurrentHashMap<>();
        for (int i = 0; i < count; i++) {
            windows.put("gpuaas-" + tenant(i), new Instant[] {start, end});
            send(producer, kafka, "burst-" + i, tenant(i), 1, start, end);
        }
        producer.flush();
        waitUntil(end.plusSeconds(6));
        return List.of(watch.startLatencies("boundary → ClusterQueue, " + count + " starts on one instant", windows),
                watch.endLatencies("boundary → ClusterQueue drained, " + count + " ends on one instant", windows));
    }

    /** The floor: a client creates a ClusterQueue; how long until a watching client sees it. */
    private static Latencies rawCreateFloor(KubernetesClient client, ClusterQueueWatch watch, int count) throws Exception {
        List<Double> millis = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String name = "floor-" + i;
            GenericKubernetesResource cq = clusterQueue(name);
            long t0 = System.nanoTime();
            client.genericKubernetesResources(Kind.CLUSTER_QUEUE.context()).resource(cq).create();
            Long seen = watch.awaitSeen(name, Duration.ofSeconds(5));
            if (seen != null) {
                millis.add((seen - t0) / 1e6);
            }
            client.genericKubernetesResources(Kind.CLUSTER_QUEUE.context()).withName(name).delete();
        }
        return Latencies.of("baseline: raw create → watch event (same API server)", millis);
    }

    /**
     * The baseline under the same load pattern: this client itself creates one ClusterQueue per tenant at the same
     * spread-out instants (4 threads, like the projector's writers), measured the same way. The difference to the
     * projector's row is what bookings → plan → writer adds.
     */
    private static Latencies rawScheduled(KubernetesClient client, ClusterQueueWatch watch, int count) throws Exception {
        watch.reset();
        Instant first = Instant.now().plusSeconds(3);
        long stepNanos = spreadSeconds * 1_000_000_000L / count;
        Map<String, Instant[]> windows = new ConcurrentHashMap<>();
        var pool = java.util.concurrent.Executors.newScheduledThreadPool(4);
        for (int i = 0; i < count; i++) {
            String name = "raw-" + i;
            Instant at = first.plusNanos(i * stepNanos);
            windows.put(name, new Instant[] {at, at});
            pool.schedule(() -> client.genericKubernetesResources(Kind.CLUSTER_QUEUE.context()).resource(clusterQueue(name)).create(),
                    Duration.between(Instant.now(), at).toNanos(), TimeUnit.NANOSECONDS);
        }
        waitUntil(first.plusSeconds(spreadSeconds + 2));
        pool.shutdown();
        Latencies result = watch.startLatencies("baseline: raw create at each instant, same spread (no projector)", windows);
        for (String name : windows.keySet()) {
            client.genericKubernetesResources(Kind.CLUSTER_QUEUE.context()).withName(name).delete();
        }
        return result;
    }

    private static GenericKubernetesResource clusterQueue(String name) {
        GenericKubernetesResource cq = new GenericKubernetesResource();
        cq.setApiVersion(Kind.CLUSTER_QUEUE.apiVersion());
        cq.setKind("ClusterQueue");
        cq.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(name).build());
        cq.setAdditionalProperty("spec", Map.of("resourceGroups", List.of(Map.of("coveredResources",
                List.of("nvidia.com/gpu"), "flavors", List.of(Map.of("name", "h200", "resources",
                        List.of(Map.of("name", "nvidia.com/gpu", "nominalQuota", "1"))))))));
        return cq;
    }

    static String counters(PrometheusRegistry registry) {
        StringBuilder out = new StringBuilder();
        for (var snapshot : registry.scrape()) {
            String name = snapshot.getMetadata().getName();
            if (snapshot instanceof io.prometheus.metrics.model.snapshots.CounterSnapshot counter
                    && (name.startsWith("gpuaas_quota_write") || name.startsWith("gpuaas_quota_reconcile"))) {
                counter.getDataPoints().forEach(d -> out.append(name).append(d.getLabels()).append('=')
                        .append((long) d.getValue()).append(' '));
            }
        }
        return out.toString().trim();
    }

    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (java.io.IOException e) {
            return "unknown";
        }
    }

    private static void send(KafkaProducer<String, Booking> producer, KafkaClients kafka, String id, String tenant,
                             int gpus, Instant start, Instant end) {
        Booking booking = new Booking(id, tenant, tenant, "h200", "h200", "nvidia.com/gpu", gpus, start, end, null,
                BookingState.CONFIRMED, "bench", Instant.now(), Instant.now(), 1);
        producer.send(new ProducerRecord<>(kafka.topic(Topics.BOOKINGS), id, booking));
    }

    static void waitUntil(Instant instant) throws InterruptedException {
        long millis = Duration.between(Instant.now(), instant).toMillis();
        if (millis > 0) {
            TimeUnit.MILLISECONDS.sleep(millis);
        }
    }

    static long nominal(GenericKubernetesResource cq) {
        return NominalQuota.of(cq).getOrDefault(GPU, BigDecimal.ZERO).longValue();
    }
}
