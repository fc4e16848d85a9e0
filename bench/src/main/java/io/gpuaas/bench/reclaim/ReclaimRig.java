package io.gpuaas.bench.reclaim;

import static io.gpuaas.events.KafkaPrincipal.IDLE_RECLAIMER;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.KafkaAccess;
import io.gpuaas.events.Labels;
import io.gpuaas.events.TopicAdmin;
import io.gpuaas.events.Topics;
import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.events.gpu.GpuScrapeEvent;
import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.kit.config.KafkaSettings;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.kube.kserve.v1beta1.InferenceService;
import io.gpuaas.kube.kserve.v1beta1.InferenceServiceSpec;
import io.gpuaas.kube.kserve.v1beta1.inferenceservicespec.Predictor;
import io.gpuaas.reclaim.apply.IntentApplier;
import io.gpuaas.reclaim.config.ReclaimerSettings.Mode;
import io.gpuaas.reclaim.k8s.PodOwnerIndex;
import io.gpuaas.reclaim.k8s.WorkerScaler;
import io.gpuaas.reclaim.k8s.WorkloadDirectory;
import io.gpuaas.reclaim.metrics.ReclaimerMetrics;
import io.gpuaas.reclaim.model.IdlePolicy;
import io.gpuaas.reclaim.model.PolicyResolver;
import io.gpuaas.reclaim.stream.ReclaimDecider;
import io.gpuaas.reclaim.stream.ReclaimPipeline;
import io.gpuaas.testing.k8s.KubernetesApi;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;

/**
 * The reclaimer's real pipeline (informers, exactly-once Streams, the intent applier and its scaler) on a broker and
 * an in-memory API server, wired by hand for benchmarks: InferenceServices with predictor pods, scrapes in, events
 * out.
 */
final class ReclaimRig implements AutoCloseable {

    static final AtomicInteger RUNS = new AtomicInteger();

    final String prefix;
    final KubernetesClient client;
    final ReclaimerMetrics metrics;
    private final KafkaBroker broker;
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final PodOwnerIndex owners;
    private final WorkloadDirectory directory;
    private final ReclaimDecider decider;
    private final WorkerScaler scaler;
    private final Mode mode;
    private final KafkaProducer<byte[], byte[]> deadLetters;
    final List<ReclaimEvent> events = new CopyOnWriteArrayList<>();
    private volatile boolean reading = true;
    private Thread reader;
    private KafkaStreams streams;
    private IntentApplier applier;
    private KafkaClients clients;

    ReclaimRig(KafkaBroker broker, KubernetesApi api, IdlePolicy policy, Mode mode) throws Exception {
        this.broker = broker;
        this.prefix = "bench" + RUNS.incrementAndGet() + "-" + System.nanoTime() + ".gpuaas.";
        try (Admin admin = broker.admin()) {
            TopicAdmin.createAll(admin, prefix);
        }
        this.client = api.newClient();
        this.metrics = new ReclaimerMetrics(registry);
        this.owners = new PodOwnerIndex(client, 0);
        this.directory = new WorkloadDirectory(client, new PolicyResolver(policy, s -> {}), ref -> {}, 0);
        owners.start();
        directory.start();
        this.scaler =
                new WorkerScaler(client, owners, WorkerScaler.RawStrategy.STOP_ANNOTATION, false, Clock.systemUTC());
        this.mode = mode;
        this.decider = new ReclaimDecider(mode, false, metrics, Clock.systemUTC());
        this.deadLetters = new KafkaProducer<>(
                service(KafkaAccess.acls(IDLE_RECLAIMER, prefix)),
                new ByteArraySerializer(),
                new ByteArraySerializer());
    }

    /** One namespace, one InferenceService per name, each with one predictor pod asking for {@code gpus} GPUs. */
    void createInferenceServices(String ns, List<String> names, int gpus) {
        if (client.namespaces().withName(ns).get() == null) {
            client.namespaces()
                    .resource(new NamespaceBuilder()
                            .withNewMetadata()
                            .withName(ns)
                            .addToLabels(Labels.TENANT, ns)
                            .endMetadata()
                            .build())
                    .create();
        }
        for (String name : names) {
            client.resources(InferenceService.class)
                    .inNamespace(ns)
                    .resource(inferenceService(ns, name))
                    .create();
            client.pods()
                    .inNamespace(ns)
                    .resource(new PodBuilder()
                            .withNewMetadata()
                            .withNamespace(ns)
                            .withName(name + "-predictor")
                            .addToLabels("serving.kserve.io/inferenceservice", name)
                            .addToLabels("component", "predictor")
                            .endMetadata()
                            .withNewSpec()
                            .addNewContainer()
                            .withName("kserve-container")
                            .withNewResources()
                            .addToLimits("nvidia.com/gpu", new Quantity(Integer.toString(gpus)))
                            .endResources()
                            .endContainer()
                            .endSpec()
                            .build())
                    .create();
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (!names.stream()
                .allMatch(n -> owners.ownerOf(ns, n + "-predictor").isPresent()
                        && directory
                                .find(new WorkloadRef(ns, "InferenceService", n))
                                .isPresent())) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("informers did not see the workloads");
            }
            sleep(20);
        }
    }

    /** A serverless InferenceService with one predictor replica, as the reclaimer scales it. */
    private static InferenceService inferenceService(String ns, String name) {
        Predictor predictor = new Predictor();
        predictor.setMinReplicas(1);
        InferenceServiceSpec spec = new InferenceServiceSpec();
        spec.setPredictor(predictor);
        InferenceService isvc = new InferenceService();
        isvc.setMetadata(
                new ObjectMetaBuilder().withNamespace(ns).withName(name).build());
        isvc.setSpec(spec);
        return isvc;
    }

    void startPipeline(String applicationId) throws Exception {
        startPipeline(applicationId, Map.of());
    }

    /** @param overrides Streams settings on top of the service's (e.g. {@code num.stream.threads}) */
    void startPipeline(String applicationId, Map<String, Object> overrides) throws Exception {
        // The pipeline runs as idle-reclaimer with exactly its ACLs, as in production.
        Map<String, Object> config = service(KafkaAccess.acls(IDLE_RECLAIMER, prefix, applicationId));
        config.putAll(Map.of(
                "application.id", applicationId, "commit.interval.ms", 100, "consumer.auto.offset.reset", "earliest"));
        config.putAll(overrides);
        streams = ReclaimPipeline.create(
                config,
                prefix,
                Files.createTempDirectory("reclaim-bench-"),
                owners,
                directory,
                decider,
                metrics,
                new DeadLetterPublisher(deadLetters, Topics.DEAD_LETTER.name(prefix), applicationId, registry));
        streams.start();
        // The applier as the service runs it: its own group, four workers, no effective rate limit here.
        clients = new KafkaClients(new KafkaSettings(
                broker.bootstrapServers(),
                prefix,
                broker.serviceCredentials(
                        IDLE_RECLAIMER.userName(), KafkaAccess.acls(IDLE_RECLAIMER, prefix, applicationId))));
        applier = IntentApplier.create(
                clients,
                applicationId,
                new IntentApplier.Options(mode, false, 4, 1_000_000, Duration.ofMinutes(1)),
                scaler::reclaim,
                metrics,
                owners::synced,
                registry,
                new DeadLetterPublisher(deadLetters, Topics.DEAD_LETTER.name(prefix), applicationId, registry));
        applier.start();
        reading = true;
        reader = Thread.ofVirtual().start(this::readEvents);
    }

    KafkaStreams.State state() {
        return streams.state();
    }

    void stopPipeline() throws InterruptedException {
        reading = false;
        if (reader != null) {
            reader.join(5_000);
        }
        if (streams != null) {
            streams.close(Duration.ofSeconds(20));
            streams = null;
        }
        if (applier != null) {
            applier.stop(Duration.ofSeconds(10));
            clients.close();
            applier = null;
        }
    }

    KafkaProducer<String, GpuScrapeEvent> producer() {
        // One request in flight and generous timeouts: on a loaded 2-core box the embedded broker can time out a
        // request it later appends, and an idempotent producer with several in flight then loops on sequence errors.
        Map<String, Object> config = broker.clientProperties();
        config.putAll(Map.of(
                "linger.ms",
                20,
                "batch.size",
                262_144,
                "compression.type",
                "snappy",
                "acks",
                "all",
                "max.in.flight.requests.per.connection",
                1,
                "request.timeout.ms",
                120_000,
                "delivery.timeout.ms",
                600_000));
        return new KafkaProducer<>(
                config, new StringSerializer(), Topics.GPU_SAMPLES.valueSerde().serializer());
    }

    void send(KafkaProducer<String, GpuScrapeEvent> producer, GpuScrape scrape) {
        producer.send(new ProducerRecord<>(Topics.GPU_SAMPLES.name(prefix), scrape.key(), scrape));
    }

    /** The bench's own readers (the raw baseline, the event reader): the broker's super user. */
    Map<String, Object> consumerConfig() {
        Map<String, Object> config = broker.clientProperties();
        config.putAll(Map.of("isolation.level", "read_committed", "max.poll.records", 5_000));
        return config;
    }

    /** idle-reclaimer's client settings with exactly {@code acls}. */
    private Map<String, Object> service(List<org.apache.kafka.common.acl.AclBinding> acls) {
        Map<String, Object> config =
                new java.util.HashMap<>(broker.serviceCredentials(IDLE_RECLAIMER.userName(), acls));
        config.put("bootstrap.servers", broker.bootstrapServers());
        return config;
    }

    private void readEvents() {
        try (KafkaConsumer<String, ReclaimEvent> consumer = new KafkaConsumer<>(
                consumerConfig(),
                new StringDeserializer(),
                Topics.RECLAIM_EVENTS.valueSerde().deserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(Topics.RECLAIM_EVENTS.name(prefix)).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            while (reading) {
                consumer.poll(Duration.ofMillis(20)).forEach(r -> events.add(r.value()));
            }
        }
    }

    /** Waits until the window step has applied {@code count} device samples. */
    void awaitWindowSamples(long count, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (metrics.windowSamples() < count) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("pipeline applied " + metrics.windowSamples() + " of " + count);
            }
            sleep(20);
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() throws Exception {
        stopPipeline();
        deadLetters.close();
        directory.close();
        owners.close();
        client.close();
    }
}
