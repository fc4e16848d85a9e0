package io.gpuaas.reclaim.apply;

import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.EventReader;
import io.gpuaas.events.KafkaAccess;
import io.gpuaas.events.Topics;
import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.events.reclaim.ReclaimIntent;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.kit.runtime.ReconcileLoop;
import io.gpuaas.kit.runtime.WorkConsumer;
import io.gpuaas.reclaim.config.ReclaimerSettings.Mode;
import io.gpuaas.reclaim.metrics.ReclaimerMetrics;
import io.gpuaas.reclaim.model.ActionRateLimiter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The applier's two components, built from plain arguments (the service, the tests and the bench): the intake that
 * reads {@code reclaim-intents} in the group {@code <application.id>-applier} and commits outcomes with offsets, and
 * the loop that applies one workload's intents at a time.
 *
 * @param loop    the reconcile loop ({@code reclaim-applier}), keyed by workload
 * @param intake  service-kit's work consumer of {@code reclaim-intents} with {@link IntentIntake} as its work and
 *                committer (a transactional producer per consumer); starts after the loop
 * @param pending what both share: the intents read and not finished
 */
public record IntentApplier(
        ReconcileLoop<WorkloadRef> loop,
        WorkConsumer<ReclaimIntent, PendingIntents.Sequenced> intake,
        PendingIntents pending) {

    /** The intake component's name (health, thread, metrics label). */
    public static final String INTAKE = "reclaim-intents";
    /** Component start order of the loop; the intake starts right after it and stops right before it. */
    public static final int START_ORDER = 100;
    /** How long a transaction of a crashed applier may hold back read_committed readers of reclaim-events. */
    private static final int TRANSACTION_TIMEOUT_MS = 10_000;

    /**
     * What the applier does.
     *
     * @param mode                this instance's mode (keda: scale nothing)
     * @param dryRun              this instance's dry-run (write nothing, whatever the intent says)
     * @param workers             workloads updated at once
     * @param maxActionsPerMinute scale-downs in any minute, per instance
     * @param retryAfter          longest wait between two attempts of a failed reclaim
     */
    public record Options(Mode mode, boolean dryRun, int workers, int maxActionsPerMinute, Duration retryAfter) {}

    /**
     * @param applicationId   the reclaimer's Streams application id: the group and transactional ids derive from it
     * @param informersSynced whether the pod informer has listed (nothing is applied before)
     */
    public static IntentApplier create(
            KafkaClients clients,
            String applicationId,
            Options options,
            ScaleAction scaler,
            ReclaimerMetrics metrics,
            BooleanSupplier informersSynced,
            PrometheusRegistry registry,
            DeadLetterPublisher deadLetters) {
        PendingIntents pending = new PendingIntents();
        ReclaimApplier applier = new ReclaimApplier(
                pending,
                scaler,
                new ActionRateLimiter(options.maxActionsPerMinute(), System::currentTimeMillis),
                options.mode(),
                options.dryRun(),
                metrics,
                Clock.systemUTC(),
                options.retryAfter(),
                informersSynced);
        ReconcileLoop<WorkloadRef> loop = ReconcileLoop.builder("reclaim-applier", applier)
                .workers(options.workers())
                .backoff(
                        Duration.ofMillis(500),
                        options.retryAfter().compareTo(Duration.ofMillis(500)) < 0
                                ? Duration.ofMillis(500)
                                : options.retryAfter())
                .resync(Duration.ofSeconds(30), pending::workloads)
                .metrics(registry)
                .startOrder(START_ORDER)
                .build();
        String group = KafkaAccess.consumerGroup(applicationId, KafkaAccess.RECLAIM_APPLIER);
        IntentIntake intents = new IntentIntake(
                clients.topic(Topics.RECLAIM_EVENTS), () -> producer(clients, group), pending, loop::enqueue);
        WorkConsumer<ReclaimIntent, PendingIntents.Sequenced> intake = WorkConsumer.builder(
                        INTAKE,
                        () -> consumer(clients, group),
                        clients.topic(Topics.RECLAIM_INTENTS),
                        EventReader.of(Topics.RECLAIM_INTENTS, deadLetters),
                        deadLetters,
                        intents)
                .committer(intents)
                .maxOpenPerPartition(PendingIntents.MAX_OPEN)
                .commitInterval(Duration.ofMillis(100))
                .backoff(Duration.ofMillis(200), Duration.ofSeconds(10))
                .metrics(registry)
                .startOrder(START_ORDER + 1)
                .build();
        return new IntentApplier(loop, intake, pending);
    }

    public void start() {
        loop.start();
        intake.start();
    }

    /** The intake first, so the loop's in-flight intents can still be committed. */
    public void stop(Duration grace) {
        intake.stop(grace);
        loop.stop(grace);
    }

    private static Consumer<byte[], byte[]> consumer(KafkaClients clients, String group) {
        Map<String, Object> config = clients.consumerConfig(group);
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, group);
        config.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        // Unless configured: a member learns of a rebalance at its next heartbeat, and a replica killed without
        // leaving holds its partitions for the session timeout; Kafka's 3 s and 45 s are long beside a second
        // replica waiting (the stream threads get 10 s too, KafkaClients.streamsConfig).
        config.putIfAbsent(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 10_000);
        config.putIfAbsent(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 1_000);
        return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    private static Producer<String, ReclaimEvent> producer(KafkaClients clients, String group) {
        Map<String, Object> config = clients.producerConfig(group);
        // Unique per producer: KIP-447 fences by consumer group generation, not by transactional id.
        config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, group + "-" + UUID.randomUUID());
        config.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, TRANSACTION_TIMEOUT_MS);
        return new KafkaProducer<>(
                config,
                new StringSerializer(),
                Topics.RECLAIM_EVENTS.valueSerde().serializer());
    }
}
