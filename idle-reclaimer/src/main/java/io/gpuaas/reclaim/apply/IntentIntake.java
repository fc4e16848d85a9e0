package io.gpuaas.reclaim.apply;

import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.events.reclaim.ReclaimIntent;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.kit.runtime.Committer;
import io.gpuaas.kit.runtime.OffsetTracker;
import io.gpuaas.kit.runtime.WorkConsumer;
import io.gpuaas.reclaim.apply.PendingIntents.Sequenced;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reclaimer's side of service-kit's {@link WorkConsumer} on {@code reclaim-intents} (component
 * {@code reclaim-intents}, group {@code <application.id>-applier}, replicas share the partitions): each intent goes to
 * {@link PendingIntents} and its workload to the applier's loop; the intent is done when the applier finishes it.
 * As the consumer's {@link Committer}, it publishes the outcomes on {@code reclaim-events} in one transaction with
 * the offsets that move past them, so read_committed readers see an outcome exactly when its intent counts as done.
 * Intents come in at least once, the applier is idempotent by window id, and an outcome is committed once:
 * effectively once.
 *
 * <p>A failed transaction ends the consumer's session (the kit's work consumer closes consumer and producer,
 * forgets what was open and resumes from the committed offsets after a backoff). An intent applied but not committed
 * is applied again, which writes nothing (the window id is on the object) and publishes its outcome then.
 */
public final class IntentIntake implements WorkConsumer.Work<ReclaimIntent, Sequenced>, Committer<Sequenced> {

    private static final Logger LOG = LoggerFactory.getLogger(IntentIntake.class);

    private final String eventsTopic;
    private final Supplier<Producer<String, ReclaimEvent>> producers;
    private final PendingIntents pending;
    private final Consumer<WorkloadRef> enqueue;

    /**
     * @param producers new transactional producers for {@code reclaim-events}, each with its own transactional id
     * @param enqueue   hands a workload with new work to the applier's loop
     */
    public IntentIntake(
            String eventsTopic,
            Supplier<Producer<String, ReclaimEvent>> producers,
            PendingIntents pending,
            Consumer<WorkloadRef> enqueue) {
        this.eventsTopic = eventsTopic;
        this.producers = producers;
        this.pending = pending;
        this.enqueue = enqueue;
    }

    @Override
    public CompletionStage<Sequenced> start(ConsumerRecord<byte[], byte[]> record, ReclaimIntent intent) {
        PendingIntents.Read read = pending.read(new TopicPartition(record.topic(), record.partition()), intent);
        if (read.wake()) {
            enqueue.accept(intent.workload());
        }
        return read.done();
    }

    @Override
    public void revoked(Collection<TopicPartition> partitions) {
        int open = pending.open();
        pending.revoked(partitions);
        LOG.info(
                "reclaim intents: handing over {}; {} open intents there are the next owner's to apply",
                partitions,
                open - pending.open());
    }

    @Override
    public Session<Sequenced> open(org.apache.kafka.clients.consumer.Consumer<byte[], byte[]> consumer) {
        Producer<String, ReclaimEvent> producer = producers.get();
        try {
            producer.initTransactions();
        } catch (KafkaException e) {
            producer.close(Duration.ofSeconds(2));
            throw e;
        }
        return new Transactions(consumer, producer);
    }

    /** One transactional producer beside one consumer. */
    private final class Transactions implements Session<Sequenced> {
        private final org.apache.kafka.clients.consumer.Consumer<byte[], byte[]> consumer;
        private final Producer<String, ReclaimEvent> producer;

        Transactions(
                org.apache.kafka.clients.consumer.Consumer<byte[], byte[]> consumer,
                Producer<String, ReclaimEvent> producer) {
            this.consumer = consumer;
            this.producer = producer;
        }

        /** Publishes the reports and the outcomes the offsets move past, in the order they happened, with them. */
        @Override
        public void commit(
                Map<TopicPartition, OffsetAndMetadata> offsets, List<OffsetTracker.Finished<Sequenced>> results) {
            List<Sequenced> events = new ArrayList<>(pending.drainReports());
            results.stream()
                    .map(OffsetTracker.Finished::result)
                    .filter(Objects::nonNull)
                    .forEach(events::add);
            if (events.isEmpty() && offsets.isEmpty()) {
                return;
            }
            events.sort(Comparator.comparingLong(Sequenced::sequence));
            producer.beginTransaction();
            try {
                for (Sequenced event : events) {
                    producer.send(new ProducerRecord<>(
                            eventsTopic, event.event().workload().key(), event.event()));
                }
                if (!offsets.isEmpty()) {
                    producer.sendOffsetsToTransaction(offsets, consumer.groupMetadata());
                }
                producer.commitTransaction();
            } catch (KafkaException e) {
                abortQuietly();
                throw e;
            }
        }

        @Override
        public void close() {
            producer.close(Duration.ofSeconds(2));
        }

        private void abortQuietly() {
            try {
                producer.abortTransaction();
            } catch (KafkaException e) {
                LOG.debug("reclaim intents: abort after a failed commit failed too", e);
            }
        }
    }
}
