package io.gpuaas.quota;

import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.EventReader;
import io.gpuaas.events.Topics;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.events.quota.QueueStateEvent;
import io.gpuaas.events.workload.WorkloadEvent;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.quota.config.QuotaSettings;
import io.gpuaas.quota.k8s.BookingSource;
import io.gpuaas.quota.k8s.Change;
import io.gpuaas.quota.k8s.ClusterCache;
import io.gpuaas.quota.k8s.ClusterQueueWriter;
import io.gpuaas.quota.k8s.Kind;
import io.gpuaas.quota.k8s.KueueManifests;
import io.gpuaas.quota.k8s.QuotaReconciler;
import io.gpuaas.quota.kafka.QueueStatePublisher;
import io.gpuaas.quota.kafka.WorkloadEventPublisher;
import io.gpuaas.quota.metrics.QuotaProjectorMetrics;
import io.gpuaas.quota.model.TransitionLedger;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** What only the Lease holder does: write quota, publish Workload transitions, publish queue state. */
final class LeaderDuties implements AutoCloseable {

    private final ClusterCache cache;
    private final KafkaClients kafka;
    private final DeadLetterPublisher deadLetters;
    private final Producer<String, WorkloadEvent> workloadProducer;
    private final Producer<String, QueueStateEvent> stateProducer;
    private final QuotaReconciler reconciler;
    private final WorkloadEventPublisher workloads;
    private final QueueStatePublisher states;
    private final TransitionLedger ledger = new TransitionLedger();
    private final Consumer<Change> reconcilerListener;
    private final Consumer<Change> workloadListener;
    private final Consumer<Change> stateListener;

    LeaderDuties(ClusterCache cache, KafkaClients kafka, DeadLetterPublisher deadLetters, ClusterQueueWriter writer,
                 KueueManifests manifests, BookingSource bookings, PoolCatalog catalog, QuotaSettings settings,
                 Clock clock, QuotaProjectorMetrics metrics) {
        this.cache = cache;
        this.kafka = kafka;
        this.deadLetters = deadLetters;
        this.workloadProducer = new KafkaProducer<>(kafka.producerConfig("quota-projector-workloads"),
                new StringSerializer(), Topics.KUEUE_WORKLOADS.valueSerde().serializer());
        this.stateProducer = new KafkaProducer<>(kafka.producerConfig("quota-projector-state"),
                new StringSerializer(), Topics.QUOTA_STATE.valueSerde().serializer());
        this.reconciler = new QuotaReconciler(cache, writer, manifests, bookings, catalog, clock, settings.drainTimeout(),
                settings.writers(), settings.resync(), metrics);
        this.workloads = new WorkloadEventPublisher(workloadProducer, kafka.topic(Topics.KUEUE_WORKLOADS), ledger, clock,
                metrics);
        this.states = new QueueStatePublisher(stateProducer, kafka.topic(Topics.QUOTA_STATE), cache, clock, metrics);
        this.reconcilerListener = reconciler::onChange;
        this.workloadListener = workloads::onChange;
        this.stateListener = states::onChange;
    }

    void start() {
        WorkloadEventPublisher.restore(ledger, new KafkaConsumer<>(kafka.consumerConfig(null), new ByteArrayDeserializer(),
                new ByteArrayDeserializer()), kafka.topic(Topics.KUEUE_WORKLOADS),
                EventReader.of(Topics.KUEUE_WORKLOADS, deadLetters), Duration.ofSeconds(60));
        // Deletions missed while nobody led are judged against the restored ledger alone, before any new claim.
        workloads.publishMissedDeletions(cache.list(Kind.WORKLOAD));
        // Listen first, then replay the cache: a transition seen twice is claimed once by the ledger.
        cache.addListener(workloadListener);
        cache.list(Kind.WORKLOAD).forEach(w -> workloads.onChange(new Change(Kind.WORKLOAD, null, w)));
        cache.addListener(stateListener);
        states.start();
        cache.addListener(reconcilerListener);
        reconciler.start();
    }

    void bookingsChanged() {
        reconciler.requestReplan();
    }

    @Override
    public void close() {
        cache.removeListener(reconcilerListener);
        cache.removeListener(workloadListener);
        cache.removeListener(stateListener);
        reconciler.close();
        states.close();
        workloadProducer.close(Duration.ofSeconds(5));
        stateProducer.close(Duration.ofSeconds(5));
    }
}
