package io.gpuaas.reclaim;

import static io.gpuaas.events.KafkaPrincipal.IDLE_RECLAIMER;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.events.KafkaAccess;
import io.gpuaas.events.TopicAdmin;
import io.gpuaas.events.TopicSpec;
import io.gpuaas.events.Topics;
import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.events.gpu.GpuScrapeEvent;
import io.gpuaas.events.notice.Notice;
import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.events.reclaim.ReclaimIntent;
import io.gpuaas.kit.config.KafkaSettings;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.reclaim.announce.AnnouncerLoop;
import io.gpuaas.reclaim.apply.IntentApplier;
import io.gpuaas.reclaim.apply.ScaleAction;
import io.gpuaas.reclaim.config.ReclaimerSettings.Mode;
import io.gpuaas.reclaim.k8s.PodOwnerIndex;
import io.gpuaas.reclaim.k8s.ReclaimAnnouncer;
import io.gpuaas.reclaim.k8s.ResumeRequests;
import io.gpuaas.reclaim.k8s.ResumeService;
import io.gpuaas.reclaim.k8s.WorkerScaler;
import io.gpuaas.reclaim.k8s.WorkloadDirectory;
import io.gpuaas.reclaim.kafka.ReclaimEventPublisher;
import io.gpuaas.reclaim.metrics.ReclaimerMetrics;
import io.gpuaas.reclaim.model.IdlePolicy;
import io.gpuaas.reclaim.model.PolicyResolver;
import io.gpuaas.reclaim.stream.ReclaimDecider;
import io.gpuaas.reclaim.stream.ReclaimPipeline;
import io.gpuaas.testing.k8s.KubernetesApi;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;

/**
 * The reclaimer's real parts (informers, scaler, exactly-once pipeline, intent applier, resume) wired by hand against
 * a real broker and the CRUD mock API, with a policy short enough for tests to run in seconds.
 */
public final class ReclaimerHarness implements AutoCloseable {

    public final String prefix;
    public final KubernetesClient client;
    public final PodOwnerIndex owners;
    public final WorkloadDirectory directory;
    private final ResumeRequests requests;
    public final WorkerScaler scaler;
    public final ResumeService resumes;
    private final KafkaBroker broker;
    private final String applicationId;
    private final ReclaimDecider decider;
    private final IntentApplier.Options applierOptions;
    private IntentApplier applier;
    private final ReclaimerMetrics metrics;
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final KafkaProducer<String, GpuScrapeEvent> producer;
    private final ReclaimEventPublisher publisher;
    private final List<ReclaimEvent> events = new CopyOnWriteArrayList<>();
    private final List<ReclaimIntent> intents = new CopyOnWriteArrayList<>();
    private final List<Notice> notices = new CopyOnWriteArrayList<>();
    /** Window ids the harness's own applier tried to apply (a second applier records its own). */
    public final List<String> appliedByFirst = new CopyOnWriteArrayList<>();

    private final Thread eventReader;
    private final Thread intentReader;
    private final Thread noticeReader;
    private final AnnouncerLoop announcer;
    private volatile boolean running = true;
    private KafkaStreams streams;
    private final org.apache.kafka.clients.producer.Producer<byte[], byte[]> deadLetterProducer;
    private final KafkaClients clients;
    private final Map<String, String> credentials;

    public ReclaimerHarness(KafkaBroker broker, KubernetesApi api, IdlePolicy policy, Mode mode, boolean dryRun)
            throws Exception {
        this.broker = broker;
        this.prefix = broker.uniquePrefix();
        this.applicationId = broker.uniqueGroupId("idle-reclaimer");
        try (Admin admin = broker.admin()) {
            TopicAdmin.createAll(admin, prefix);
        }
        this.client = api.newClient();
        this.metrics = new ReclaimerMetrics(registry);
        this.owners = new PodOwnerIndex(client, 0);
        // The pipeline, its publishers and dead letters run as idle-reclaimer with exactly its ACLs.
        this.credentials = broker.serviceCredentials(
                IDLE_RECLAIMER.userName(), KafkaAccess.acls(IDLE_RECLAIMER, prefix, applicationId));
        KafkaClients clients = new KafkaClients(new KafkaSettings(broker.bootstrapServers(), prefix, credentials));
        this.publisher = new ReclaimEventPublisher(clients);
        this.scaler =
                new WorkerScaler(client, owners, WorkerScaler.RawStrategy.STOP_ANNOTATION, false, Clock.systemUTC());
        ResumeService[] holder = new ResumeService[1];
        ResumeRequests requests = new ResumeRequests(() -> holder[0]);
        this.directory = new WorkloadDirectory(client, new PolicyResolver(policy, s -> {}), requests::request, 0);
        this.resumes = new ResumeService(scaler, directory, publisher::publish, metrics);
        holder[0] = resumes;
        this.requests = requests;
        owners.start();
        directory.start();
        requests.start();
        this.decider = new ReclaimDecider(mode, dryRun, metrics, Clock.systemUTC());
        this.applierOptions = new IntentApplier.Options(mode, dryRun, 4, 1_000, Duration.ofSeconds(1));
        this.deadLetterProducer = clients.deadLetterProducer();
        this.clients = clients;
        this.producer = new KafkaProducer<>(
                broker.clientProperties(),
                new StringSerializer(),
                Topics.GPU_SAMPLES.valueSerde().serializer());
        this.eventReader = Thread.ofVirtual().start(() -> read(Topics.RECLAIM_EVENTS, events));
        this.intentReader = Thread.ofVirtual().start(() -> read(Topics.RECLAIM_INTENTS, intents));
        this.noticeReader = Thread.ofVirtual().start(() -> read(Topics.NOTICES, notices));
        await().atMost(Duration.ofSeconds(20)).until(() -> owners.synced() && directory.synced());
        start();
        this.announcer = AnnouncerLoop.create(
                new ReclaimAnnouncer(client, scaler::leavesAlone, Clock.systemUTC()), clients, registry);
        announcer.loop().start();
        announcer.feed().start();
    }

    /**
     * Starts (or restarts) the pipeline with an empty local state directory (windows come from the changelog) and
     * an applier of its intents.
     */
    public void start() throws Exception {
        Path stateDir = Files.createTempDirectory("reclaim-it-");
        Map<String, Object> config = new HashMap<>(credentials);
        config.putAll(Map.of(
                "application.id",
                applicationId,
                "bootstrap.servers",
                broker.bootstrapServers(),
                "commit.interval.ms",
                100,
                "consumer.auto.offset.reset",
                "earliest",
                // A restarted instance waits for the old member's session to expire (dynamic members do
                // not leave on close): keep that at the broker's minimum so restarts take seconds.
                "consumer.session.timeout.ms",
                6_000,
                "consumer.heartbeat.interval.ms",
                1_000));
        streams = ReclaimPipeline.create(
                config,
                prefix,
                stateDir,
                owners,
                directory,
                decider,
                metrics,
                new io.gpuaas.events.DeadLetterPublisher(
                        deadLetterProducer, Topics.DEAD_LETTER.name(prefix), applicationId, registry));
        streams.start();
        applier = newApplier((ref, groups, windowId, dry) -> {
            appliedByFirst.add(windowId);
            return scaler.reclaim(ref, groups, windowId, dry);
        });
        applier.start();
        await().atMost(Duration.ofSeconds(60)).until(() -> streams.state() == KafkaStreams.State.RUNNING);
    }

    /** The Kafka clients the reclaimer's parts use, as idle-reclaimer with its ACLs. */
    public KafkaClients clients() {
        return clients;
    }

    /** Another applier in the same group, as a second replica would run (the caller starts and stops it). */
    public IntentApplier newApplier(ScaleAction scaleAction) {
        return IntentApplier.create(
                clients,
                applicationId,
                applierOptions,
                scaleAction,
                metrics,
                owners::synced,
                registry,
                new io.gpuaas.events.DeadLetterPublisher(
                        deadLetterProducer, Topics.DEAD_LETTER.name(prefix), applicationId + "-applier", registry));
    }

    /** Writes intents as the reclaimer's stream would (tests of the applier alone). */
    public void sendIntents(ReclaimIntent... toSend) {
        try (KafkaProducer<String, ReclaimIntent> intentProducer = new KafkaProducer<>(
                broker.clientProperties(),
                new StringSerializer(),
                Topics.RECLAIM_INTENTS.valueSerde().serializer())) {
            for (ReclaimIntent intent : toSend) {
                intentProducer.send(new ProducerRecord<>(
                        Topics.RECLAIM_INTENTS.name(prefix), intent.workload().key(), intent));
            }
        }
    }

    /** Stops pipeline and applier cleanly (last transactions committed) and starts new instances in their place. */
    public void restart() throws Exception {
        closeStreams();
        start();
    }

    public void send(GpuScrape... scrapes) {
        for (GpuScrape s : scrapes) {
            producer.send(new ProducerRecord<>(Topics.GPU_SAMPLES.name(prefix), s.key(), s));
        }
        producer.flush();
    }

    public void send(List<GpuScrape> scrapes) {
        send(scrapes.toArray(GpuScrape[]::new));
    }

    /** Events published so far for the workload {@code namespace/kind/name}. */
    public List<ReclaimEvent> eventsOf(String workloadKey) {
        return events.stream()
                .filter(e -> e.workload().key().equals(workloadKey))
                .toList();
    }

    public <T extends ReclaimEvent> List<T> eventsOf(String workloadKey, Class<T> type) {
        return eventsOf(workloadKey).stream()
                .filter(type::isInstance)
                .map(type::cast)
                .toList();
    }

    /** The windows the running pipeline holds for a workload key (interactive query on the state store). */
    public java.util.Optional<io.gpuaas.reclaim.model.WorkloadWindows> windows(String workloadKey) {
        try {
            var store = streams.store(org.apache.kafka.streams.StoreQueryParameters.fromNameAndType(
                    io.gpuaas.reclaim.stream.ReclaimTopology.STORE,
                    org.apache.kafka.streams.state.QueryableStoreTypes
                            .<String, io.gpuaas.reclaim.model.WorkloadWindows>keyValueStore()));
            return java.util.Optional.ofNullable(store.get(workloadKey));
        } catch (org.apache.kafka.streams.errors.InvalidStateStoreException e) {
            return java.util.Optional.empty();
        }
    }

    public PrometheusRegistry registry() {
        return registry;
    }

    /** Intents the pipeline published so far for the workload {@code namespace/kind/name}. */
    public List<ReclaimIntent> intentsOf(String workloadKey) {
        return intents.stream()
                .filter(e -> e.workload().key().equals(workloadKey))
                .toList();
    }

    /** ReclaimPending notices committed so far for the workload {@code namespace/kind/name}, in order. */
    public List<Notice.ReclaimPending> noticesOf(String workloadKey) {
        return notices.stream()
                .filter(Notice.ReclaimPending.class::isInstance)
                .map(Notice.ReclaimPending.class::cast)
                .filter(n -> n.workload().key().equals(workloadKey))
                .toList();
    }

    /** Reads {@code topic} from the beginning as a read_committed consumer would, into {@code sink}. */
    private <T> void read(TopicSpec<String, T> topic, List<T> sink) {
        Map<String, Object> config = broker.clientProperties();
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        try (KafkaConsumer<String, T> consumer = new KafkaConsumer<>(
                config, new StringDeserializer(), topic.valueSerde().deserializer())) {
            var partitions = consumer.partitionsFor(topic.name(prefix)).stream()
                    .map(p -> new org.apache.kafka.common.TopicPartition(p.topic(), p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            while (running) {
                consumer.poll(Duration.ofMillis(100)).forEach(r -> sink.add(r.value()));
            }
        }
    }

    private void closeStreams() {
        streams.close(new KafkaStreams.CloseOptions().leaveGroup(true).timeout(Duration.ofSeconds(20)));
        applier.stop(Duration.ofSeconds(10));
    }

    @Override
    public void close() throws Exception {
        running = false;
        announcer.feed().stop(Duration.ofSeconds(5));
        announcer.loop().stop(Duration.ofSeconds(5));
        if (streams != null) {
            closeStreams();
        }
        eventReader.join(5_000);
        intentReader.join(5_000);
        noticeReader.join(5_000);
        producer.close();
        clients.close(); // and the producers it made, the publisher's among them
        requests.stop(Duration.ofSeconds(2));
        directory.close();
        owners.close();
        client.close();
    }
}
