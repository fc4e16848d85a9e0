package io.gpuaas.bench.quota;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.bench.BenchOptions;
import io.gpuaas.events.Labels;
import io.gpuaas.events.TopicAdmin;
import io.gpuaas.events.Topics;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.kit.config.KafkaSettings;
import io.gpuaas.kit.k8s.LeaseSettings;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.kube.kueue.v1beta2.ClusterQueue;
import io.gpuaas.kube.kueue.v1beta2.ClusterQueueSpec;
import io.gpuaas.kube.kueue.v1beta2.clusterqueuespec.ResourceGroups;
import io.gpuaas.kube.kueue.v1beta2.clusterqueuespec.resourcegroups.Flavors;
import io.gpuaas.kube.kueue.v1beta2.clusterqueuespec.resourcegroups.flavors.Resources;
import io.gpuaas.quota.QuotaProjector;
import io.gpuaas.quota.config.QuotaSettings;
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
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * quota-projector with 1,000 tenants, in one JVM: a real KRaft broker, the fabric8 CRUD mock API server, the real
 * projector. (1) Booking boundary → ClusterQueue change as seen by a separate watching client, for window starts
 * spread over 20 s and for a burst of starts on the same instant, beside the raw create → watch-event latency of
 * the same API server (the floor); all of it twice, on the machine as it is ("quiet") and with a separate busy-loop
 * process occupying one core ({@link BusyCore}). (2) Workload status change → its quota-state record, beside the
 * raw Kafka produce → consume round trip (the floor), in {@link WorkloadStateBench}.
 *
 * <p>Usage: {@code QuotaBench [--tenants 1000] [--burst 200] [--workloads 300] [--writers 8] [--profiles true]
 * [--queue-lead 120]
 * [--quiet true] [--busy true] [--out bench/results/quota.md]}
 */
public final class QuotaBench {

    /** Seconds over which the spread boundaries fall (--spread; smaller in the suite's --quick mode). */
    private static int spreadSeconds = 20;
    /** Length of each spread booking window in seconds (--window). */
    private static int windowSeconds = 15;

    static final FlavorResource GPU = new FlavorResource("h200", "nvidia.com/gpu");

    private QuotaBench() {}

    public static void main(String[] args) throws Exception {
        BenchOptions opts = BenchOptions.of(args);
        int tenants = opts.integer("tenants", 1000);
        int burst = opts.integer("burst", 200);
        int workloads = opts.integer("workloads", 300);
        Path out = opts.path("out", "bench/results/quota.md");
        spreadSeconds = opts.integer("spread", 20);
        windowSeconds = opts.integer("window", 15);
        List<Latencies> boundary = new ArrayList<>();
        List<Latencies> state;
        List<String> loads = new ArrayList<>();
        try (EmbeddedKafka broker = EmbeddedKafka.start();
                KubernetesApi api = KubernetesApi.start()) {
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
                client.namespaces()
                        .resource(new NamespaceBuilder()
                                .withNewMetadata()
                                .withName(t)
                                .addToLabels(Labels.TENANT, t)
                                .endMetadata()
                                .build())
                        .create();
            }
            PrometheusRegistry registry = new PrometheusRegistry();
            QuotaSettings d = QuotaSettings.defaults();
            QuotaSettings settings = new QuotaSettings(
                    d.cohortName(),
                    d.localQueueName(),
                    d.allowBorrowing(),
                    opts.flag("profiles", true),
                    d.drainTimeout(),
                    opts.integer("writers", d.writers()),
                    d.resync(),
                    Duration.ofSeconds(
                            opts.integer("queue-lead", (int) d.queueLead().toSeconds())));
            loads.add("settings: writers=" + settings.writers() + ", hardwareProfiles=" + settings.hardwareProfiles()
                    + ", queueLead=" + settings.queueLead().toSeconds() + " s");
            QuotaProjector projector = new QuotaProjector(
                    api.newClient(),
                    kafka,
                    settings,
                    LeaseSettings.disabled("gpuaas-quota-projector"),
                    catalog(tenants),
                    registry,
                    Clock.systemUTC());
            projector.start();
            awaitLeading(projector);
            ClusterQueueWatch watch = new ClusterQueueWatch(api.newClient());
            try (KafkaProducer<String, Booking> bookings = new KafkaProducer<>(
                    kafka.producerConfig("bench"),
                    new StringSerializer(),
                    Topics.BOOKINGS.valueSerde().serializer())) {
                if (opts.flag("quiet", true)) {
                    BoundaryPhase quiet = new BoundaryPhase(
                            "quiet", ", quiet", spreadSeconds, windowSeconds, client, bookings, kafka, watch);
                    loads.add("before the quiet boundaries: " + loadAverage());
                    boundary.addAll(quiet.run(tenants, burst));
                    loads.add("after them: " + loadAverage());
                }
                if (opts.flag("busy", true)) {
                    loads.add("before the boundaries with one core busy: " + loadAverage());
                    try (BusyCore busy = BusyCore.start()) {
                        BoundaryPhase loaded = new BoundaryPhase(
                                "busy",
                                ", one core busy",
                                spreadSeconds,
                                windowSeconds,
                                client,
                                bookings,
                                kafka,
                                watch);
                        boundary.addAll(loaded.run(tenants, burst));
                        loads.add("after the boundaries with one core busy: " + loadAverage() + " (" + busy.describe()
                                + ")");
                    }
                }
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
        return new PoolCatalog(List.of(
                new Pool("h200", "h200", "nvidia.com/gpu", Math.max(10_000, tenants * 4), "NVIDIA H200", null)));
    }

    /** Waits until the projector holds the (unelected) lease and has read the bookings: start no longer blocks. */
    private static void awaitLeading(QuotaProjector projector) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!(projector.ready() && projector.leading())) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("projector not ready within 120 s");
            }
            TimeUnit.MILLISECONDS.sleep(50);
        }
    }

    /** A ClusterQueue as any client would write it (the raw baselines): one h200 GPU. */
    static ClusterQueue clusterQueue(String name) {
        Resources gpu = new Resources();
        gpu.setName(GPU.resource());
        gpu.setNominalQuota(new IntOrString("1"));
        Flavors h200 = new Flavors();
        h200.setName(GPU.flavor());
        h200.setResources(List.of(gpu));
        ResourceGroups group = new ResourceGroups();
        group.setCoveredResources(List.of(GPU.resource()));
        group.setFlavors(List.of(h200));
        ClusterQueueSpec spec = new ClusterQueueSpec();
        spec.setResourceGroups(List.of(group));
        ClusterQueue queue = new ClusterQueue();
        queue.setMetadata(new ObjectMetaBuilder().withName(name).build());
        queue.setSpec(spec);
        return queue;
    }

    static String counters(PrometheusRegistry registry) {
        StringBuilder out = new StringBuilder();
        for (var snapshot : registry.scrape()) {
            String name = snapshot.getMetadata().getName();
            if (snapshot instanceof io.prometheus.metrics.model.snapshots.CounterSnapshot counter
                    && (name.startsWith("gpuaas_quota_write") || name.startsWith("gpuaas_quota_reconcile"))) {
                counter.getDataPoints().forEach(d -> out.append(name)
                        .append(d.getLabels())
                        .append('=')
                        .append((long) d.getValue())
                        .append(' '));
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

    static void send(
            KafkaProducer<String, Booking> producer,
            KafkaClients kafka,
            String id,
            String tenant,
            int gpus,
            Instant start,
            Instant end) {
        Booking booking = new Booking(
                id,
                tenant,
                tenant,
                "h200",
                "h200",
                "nvidia.com/gpu",
                gpus,
                start,
                end,
                null,
                BookingState.CONFIRMED,
                "bench",
                Instant.now(),
                Instant.now(),
                1);
        producer.send(new ProducerRecord<>(kafka.topic(Topics.BOOKINGS), id, booking));
    }

    static void waitUntil(Instant instant) throws InterruptedException {
        long millis = Duration.between(Instant.now(), instant).toMillis();
        if (millis > 0) {
            TimeUnit.MILLISECONDS.sleep(millis);
        }
    }

    static long nominal(ClusterQueue cq) {
        return NominalQuota.of(cq).getOrDefault(GPU, BigDecimal.ZERO).longValue();
    }
}
