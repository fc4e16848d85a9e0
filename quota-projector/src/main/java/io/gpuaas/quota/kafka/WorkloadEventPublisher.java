package io.gpuaas.quota.kafka;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.Topics;
import io.gpuaas.events.workload.WorkloadEvent;
import io.gpuaas.events.workload.WorkloadEvent.Condition;
import io.gpuaas.events.workload.WorkloadEvent.WorkloadDeleted;
import io.gpuaas.events.workload.WorkloadEvent.WorkloadObserved;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.kit.runtime.TopicReplica;
import io.gpuaas.kit.runtime.TopicReplica.StartAt;
import io.gpuaas.kube.kueue.v1beta2.Workload;
import io.gpuaas.quota.k8s.Change;
import io.gpuaas.quota.k8s.Workloads;
import io.gpuaas.quota.metrics.QuotaProjectorMetrics;
import io.gpuaas.quota.model.TransitionLedger;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kueue → Kafka: one {@link WorkloadObserved} per condition transition and a {@link WorkloadDeleted} per deletion,
 * keyed {@code namespace/name}. Called on the Workload informer's thread, which delivers one object's changes in
 * order; sends are asynchronous so the informer never waits for Kafka.
 */
public final class WorkloadEventPublisher {

    private static final Logger LOG = LoggerFactory.getLogger(WorkloadEventPublisher.class);

    private final Producer<String, WorkloadEvent> producer;
    private final String topic;
    private final TransitionLedger ledger;
    private final Clock clock;
    private final QuotaProjectorMetrics metrics;

    public WorkloadEventPublisher(
            Producer<String, WorkloadEvent> producer,
            String topic,
            TransitionLedger ledger,
            Clock clock,
            QuotaProjectorMetrics metrics) {
        this.producer = producer;
        this.topic = topic;
        this.ledger = ledger;
        this.clock = clock;
        this.metrics = metrics;
    }

    /**
     * A one-off replica that replays the records already on the topic into {@code ledger}: caught up once it has
     * read the topic to its end as of its start, then stopped. A takeover restores the ledger this way, so the end is
     * the end at the takeover, after everything the previous leader sent.
     */
    public static TopicReplica restoring(TransitionLedger ledger, KafkaClients kafka, DeadLetterPublisher deadLetters) {
        return TopicReplica.builder(
                        "workload-ledger",
                        () -> kafka.replicaConsumer("quota-projector-ledger"),
                        kafka.settings().topicPrefix(),
                        deadLetters)
                .follow(Topics.KUEUE_WORKLOADS, StartAt.BEGINNING, ledger::restore)
                .backoff(Duration.ofMillis(200), Duration.ofSeconds(5))
                .build();
    }

    public void onChange(Change change) {
        if (!(change.current() instanceof Workload workload)) {
            return;
        }
        String key = WorkloadEvent.key(
                workload.getMetadata().getNamespace(), workload.getMetadata().getName());
        if (change.deleted()) {
            ledger.forget(key);
            WorkloadObserved last = Workloads.snapshot(workload, clock.instant());
            send(
                    key,
                    new WorkloadDeleted(
                            last.namespace(),
                            last.name(),
                            last.uid(),
                            last.queueName(),
                            last.clusterQueue(),
                            clock.instant()),
                    null);
            return;
        }
        WorkloadObserved snapshot = Workloads.snapshot(workload, clock.instant());
        var fresh = ledger.claimNew(key, snapshot.uid(), snapshot.conditions());
        if (fresh.isEmpty()) {
            metrics.duplicateSuppressed();
        }
        for (Condition transition : fresh) {
            send(key, withTransition(snapshot, transition), transition);
        }
    }

    /** Publishes deletions that happened while no replica was watching: known to the topic, absent from the cluster. */
    public void publishMissedDeletions(Collection<? extends HasMetadata> workloads) {
        Set<String> present = workloads.stream()
                .map(w -> WorkloadEvent.key(
                        w.getMetadata().getNamespace(), w.getMetadata().getName()))
                .collect(Collectors.toSet());
        for (Map.Entry<String, String> known : ledger.known().entrySet()) {
            if (!present.contains(known.getKey())) {
                String[] parts = known.getKey().split("/", 2);
                ledger.forget(known.getKey());
                send(
                        known.getKey(),
                        new WorkloadDeleted(parts[0], parts[1], known.getValue(), null, null, clock.instant()),
                        null);
            }
        }
    }

    private void send(String key, WorkloadEvent event, Condition claimed) {
        String type =
                switch (event) {
                    case WorkloadObserved o -> o.transition().type();
                    case WorkloadDeleted d -> "Deleted";
                    case WorkloadEvent.FeedWatermark m -> "FeedWatermark";
                };
        producer.send(new ProducerRecord<>(topic, key, event), (metadata, error) -> {
            if (error == null) {
                metrics.workloadEvent(type);
                return;
            }
            LOG.warn("cannot publish {} of {}: {}", type, key, error.toString());
            if (claimed != null) {
                ledger.release(key, ((WorkloadObserved) event).uid(), claimed);
            }
        });
    }

    static WorkloadObserved withTransition(WorkloadObserved s, Condition transition) {
        return new WorkloadObserved(
                s.namespace(),
                s.name(),
                s.uid(),
                s.resourceVersion(),
                s.queueName(),
                s.clusterQueue(),
                s.priority(),
                s.priorityClass(),
                s.active(),
                transition,
                s.conditions(),
                s.podSets(),
                s.admission(),
                s.owner(),
                s.time());
    }
}
