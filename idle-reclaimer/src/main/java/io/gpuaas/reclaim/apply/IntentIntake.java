package io.gpuaas.reclaim.apply;

import io.gpuaas.events.EventReader;
import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.events.reclaim.ReclaimIntent;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.kit.runtime.ComponentHealth;
import io.gpuaas.kit.runtime.ComponentHealth.State;
import io.gpuaas.kit.runtime.ServiceComponent;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads {@code reclaim-intents} in a consumer group (replicas share the partitions), hands each workload to the
 * applier's loop, and publishes the outcomes on {@code reclaim-events} in one transaction with the offsets that move
 * past them (read_committed readers see an outcome exactly when its intent counts as done). Intents come in at
 * least once, the applier is idempotent by window id, and an outcome is committed once: effectively once.
 *
 * <p>Any Kafka failure (broker gone, fenced or timed-out transaction, a rebalance that outran a commit) ends the
 * session: consumer and producer are closed, everything not committed is forgotten, and after a backoff a new
 * session resumes from the committed offsets. An intent applied but not committed is applied again, which writes
 * nothing (the window id is on the object) and publishes its outcome then.
 */
public final class IntentIntake implements ServiceComponent {

    private static final Logger LOG = LoggerFactory.getLogger(IntentIntake.class);
    private static final Duration POLL = Duration.ofMillis(100);

    private final String topic;
    private final String eventsTopic;
    private final Supplier<org.apache.kafka.clients.consumer.Consumer<byte[], byte[]>> consumers;
    private final Supplier<Producer<String, ReclaimEvent>> producers;
    private final EventReader<ReclaimIntent> reader;
    private final PendingIntents pending;
    private final Consumer<WorkloadRef> enqueue;
    private final Duration maxBackoff;
    private final int startOrder;
    private final AtomicInteger restarts = new AtomicInteger();
    private volatile State state = State.STARTING;
    private volatile boolean running;
    private volatile String lastError;
    private volatile Duration grace = Duration.ofSeconds(10);
    private Thread thread;

    /**
     * @param consumers   new byte-array consumers in the applier's group (read_committed, no auto-commit)
     * @param producers   new transactional producers for {@code reclaim-events}, each with its own transactional id
     * @param enqueue     hands a workload with new work to the applier's loop
     * @param maxBackoff  longest wait before a new session after a failed one
     * @param startOrder  after the loop's: it stops first, so in-flight intents can still be committed
     */
    public IntentIntake(
            String topic,
            String eventsTopic,
            Supplier<org.apache.kafka.clients.consumer.Consumer<byte[], byte[]>> consumers,
            Supplier<Producer<String, ReclaimEvent>> producers,
            EventReader<ReclaimIntent> reader,
            PendingIntents pending,
            Consumer<WorkloadRef> enqueue,
            Duration maxBackoff,
            int startOrder) {
        this.topic = topic;
        this.eventsTopic = eventsTopic;
        this.consumers = consumers;
        this.producers = producers;
        this.reader = reader;
        this.pending = pending;
        this.enqueue = enqueue;
        this.maxBackoff = maxBackoff;
        this.startOrder = startOrder;
    }

    @Override
    public String name() {
        return "reclaim-intents";
    }

    @Override
    public int startOrder() {
        return startOrder;
    }

    @Override
    public synchronized void start() {
        if (thread != null) {
            return;
        }
        running = true;
        thread = new Thread(this::run, name());
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void stop(Duration grace) {
        Thread current;
        synchronized (this) {
            this.grace = grace;
            running = false;
            current = thread;
        }
        if (current == null) {
            return;
        }
        try {
            current.join(grace.plusSeconds(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        state = State.STOPPED;
    }

    @Override
    public ComponentHealth health() {
        String error = lastError;
        String detail = pending.open() + " intents open" + (error == null ? "" : "; last failure: " + error);
        return new ComponentHealth(state, true, detail, restarts.get());
    }

    private void run() {
        int failures = 0;
        try {
            while (running) {
                try {
                    session();
                    failures = 0;
                } catch (RuntimeException e) {
                    if (!running) {
                        break;
                    }
                    failures++;
                    restarts.incrementAndGet();
                    lastError = e.getClass().getSimpleName() + ": " + e.getMessage();
                    state = State.RECOVERING;
                    LOG.warn(
                            "reclaim intents: session failed ({}); starting over from the committed offsets",
                            lastError,
                            e);
                    sleep(backoff(failures));
                }
            }
        } catch (Error e) {
            state = State.DEAD;
            LOG.error("reclaim intents: stopped by a JVM error", e);
            return;
        }
        state = State.STOPPED;
    }

    private void session() {
        try (var consumer = consumers.get();
                Producer<String, ReclaimEvent> producer = producers.get()) {
            producer.initTransactions();
            Session session = new Session(consumer, producer);
            consumer.subscribe(List.of(topic), session);
            while (running) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                    session.take(record);
                }
                if (state != State.RUNNING) {
                    state = State.RUNNING;
                    lastError = null;
                }
                session.commit();
                session.throttle();
            }
            session.finish(grace);
        } finally {
            pending.clear();
        }
    }

    /** One consumer and one producer, and the partitions they own together. */
    private final class Session implements org.apache.kafka.clients.consumer.ConsumerRebalanceListener {
        private final org.apache.kafka.clients.consumer.Consumer<byte[], byte[]> consumer;
        private final Producer<String, ReclaimEvent> producer;
        private final Set<TopicPartition> paused = new HashSet<>();

        Session(
                org.apache.kafka.clients.consumer.Consumer<byte[], byte[]> consumer,
                Producer<String, ReclaimEvent> producer) {
            this.consumer = consumer;
            this.producer = producer;
        }

        void take(ConsumerRecord<byte[], byte[]> record) {
            ReclaimIntent intent = reader.read(record).orElse(null);
            TopicPartition partition = new TopicPartition(record.topic(), record.partition());
            if (pending.read(partition, record.offset(), intent)) {
                enqueue.accept(intent.workload());
            }
        }

        /** Publishes the outcomes finished since the last commit with the offsets that move past them. */
        void commit() {
            PendingIntents.Batch batch = pending.drain();
            if (batch.isEmpty()) {
                return;
            }
            producer.beginTransaction();
            try {
                for (ReclaimEvent event : batch.events()) {
                    producer.send(
                            new ProducerRecord<>(eventsTopic, event.workload().key(), event));
                }
                if (!batch.offsets().isEmpty()) {
                    producer.sendOffsetsToTransaction(batch.offsets(), consumer.groupMetadata());
                }
                producer.commitTransaction();
            } catch (KafkaException e) {
                abortQuietly();
                throw e;
            }
        }

        /** Pauses partitions with too many open intents, resumes those that drained. */
        void throttle() {
            Set<TopicPartition> crowded = pending.crowded();
            crowded.retainAll(consumer.assignment());
            Set<TopicPartition> resume = new HashSet<>(paused);
            resume.removeAll(crowded);
            if (!resume.isEmpty()) {
                consumer.resume(resume);
                paused.removeAll(resume);
            }
            crowded.removeAll(paused);
            if (!crowded.isEmpty()) {
                consumer.pause(crowded);
                paused.addAll(crowded);
            }
        }

        /** Stopping: lets in-flight intents finish within half the grace, then commits what finished. */
        void finish(Duration grace) {
            long deadline = System.nanoTime() + grace.dividedBy(2).toNanos();
            while (pending.inFlight() > 0 && System.nanoTime() < deadline) {
                sleep(Duration.ofMillis(20));
            }
            commit();
        }

        @Override
        public void onPartitionsAssigned(java.util.Collection<TopicPartition> partitions) {
            var committed = consumer.committed(new HashSet<>(partitions));
            for (TopicPartition partition : partitions) {
                pending.assigned(partition, committed.get(partition));
            }
        }

        @Override
        public void onPartitionsRevoked(java.util.Collection<TopicPartition> partitions) {
            // Still the owner: what finished is committed now, the rest is the next owner's to redo.
            commit();
            int open = pending.open();
            pending.revoked(partitions);
            LOG.info(
                    "reclaim intents: handing over {}; {} open intents there are the next owner's to apply",
                    partitions,
                    open - pending.open());
            paused.removeAll(partitions);
        }

        @Override
        public void onPartitionsLost(java.util.Collection<TopicPartition> partitions) {
            pending.revoked(partitions);
            paused.removeAll(partitions);
        }

        private void abortQuietly() {
            try {
                producer.abortTransaction();
            } catch (KafkaException e) {
                LOG.debug("reclaim intents: abort after a failed commit failed too", e);
            }
        }
    }

    private Duration backoff(int failures) {
        long ceiling = Math.min(maxBackoff.toMillis(), 200L << Math.min(failures - 1, 16));
        return Duration.ofMillis(
                ceiling / 2 + java.util.concurrent.ThreadLocalRandom.current().nextLong(ceiling / 2 + 1));
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
