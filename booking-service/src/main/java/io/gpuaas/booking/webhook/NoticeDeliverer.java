package io.gpuaas.booking.webhook;

import io.gpuaas.events.EventReader;
import io.gpuaas.events.notice.Notice;
import io.gpuaas.events.webhook.WebhookRegistration;
import io.gpuaas.kit.runtime.ComponentHealth;
import io.gpuaas.kit.runtime.ComponentHealth.State;
import io.gpuaas.kit.runtime.ServiceComponent;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads {@code gpuaas.notices} in its own consumer group and hands every notice to each webhook of its tenant
 * ({@link EndpointQueues}); never waits for a delivery. An offset is committed once every delivery of the records
 * below it ended ({@link OffsetTracker}); with too many deliveries open it pauses instead of reading on. Readiness
 * follows this consumer, not the receivers: a failing consumer is replaced after a backoff (RECOVERING meanwhile),
 * and a JVM error ends it (DEAD).
 */
public final class NoticeDeliverer implements ServiceComponent {

    /** The component's name in health details, its thread and its consumer's client id. */
    public static final String NAME = "webhook-deliverer";

    private static final Logger LOG = LoggerFactory.getLogger(NoticeDeliverer.class);

    /** Waits until the registry holds every registration written before the start; false on timeout. */
    interface RegistryLoaded {
        boolean await(Duration timeout) throws InterruptedException;
    }

    private static final Duration POLL = Duration.ofMillis(200);

    private final Supplier<Consumer<byte[], byte[]>> consumers;
    private final String topic;
    private final EventReader<Notice> reader;
    private final WebhookRegistry registry;
    private final EndpointQueues queues;
    private final OffsetTracker tracker;
    private final int maxPending;
    private final RegistryLoaded registryLoaded;
    private final RetryBackoff restartBackoff = new RetryBackoff(Duration.ofMillis(500), Duration.ofSeconds(30));
    private volatile State state = State.STARTING;
    private volatile String detail = "starting";
    private volatile boolean running = true;
    private volatile Consumer<byte[], byte[]> consumer;
    private volatile int restarts;
    private Thread thread;

    NoticeDeliverer(
            Supplier<Consumer<byte[], byte[]>> consumers,
            String topic,
            EventReader<Notice> reader,
            WebhookRegistry registry,
            EndpointQueues queues,
            OffsetTracker tracker,
            int maxPending,
            RegistryLoaded registryLoaded) {
        this.registryLoaded = registryLoaded;
        this.consumers = consumers;
        this.topic = topic;
        this.reader = reader;
        this.registry = registry;
        this.queues = queues;
        this.tracker = tracker;
        this.maxPending = maxPending;
    }

    @Override
    public String name() {
        return NAME;
    }

    /** After the webhooks replica (order 0), so the endpoints are known before the first notice is read. */
    @Override
    public int startOrder() {
        return 20;
    }

    @Override
    public synchronized void start() {
        if (thread != null) {
            return;
        }
        thread = new Thread(this::run, NAME);
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void stop(Duration grace) {
        running = false;
        Consumer<byte[], byte[]> current = consumer;
        if (current != null) {
            current.wakeup();
        }
        try {
            Thread running;
            synchronized (this) {
                running = thread;
            }
            if (running != null) {
                running.join(grace);
            }
            queues.stop(grace);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        state = State.STOPPED;
    }

    @Override
    public ComponentHealth health() {
        return new ComponentHealth(state, true, detail + "; " + tracker.pending() + " deliveries open", restarts);
    }

    private void run() {
        try {
            // A notice read before its tenant's endpoints are known would count as delivered to nobody and its offset
            // would be committed: the registry must be whole first (after a restart, too).
            detail = "waiting for the webhook registry";
            while (running && !registryLoaded.await(Duration.ofSeconds(1))) {
                LOG.debug("{}: the webhook registry is still loading", NAME);
            }
            for (int failures = 0; running; ) {
                RuntimeException failure = session();
                if (failure == null || !running) {
                    break;
                }
                failures++;
                restarts++;
                Duration wait = restartBackoff.delay(failures);
                state = State.RECOVERING;
                detail = "consumer failed (" + failure.getClass().getSimpleName() + "); new one in " + wait.toMillis()
                        + " ms";
                LOG.warn("{}: consumer failed; a new one in {} ms", NAME, wait.toMillis(), failure);
                Thread.sleep(wait);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Error e) {
            state = State.DEAD;
            detail = "died: " + e;
            LOG.error("{}: died; notices are no longer delivered to webhooks", NAME, e);
            return;
        }
        state = State.STOPPED;
        detail = "stopped";
    }

    /** One consumer's life; the failure that ended it, or null when stopping. */
    private RuntimeException session() {
        Consumer<byte[], byte[]> current = null;
        try {
            current = consumers.get();
            consumer = current;
            Consumer<byte[], byte[]> c = current;
            c.subscribe(List.of(topic), new Rebalance(c));
            while (running) {
                for (ConsumerRecord<byte[], byte[]> record : c.poll(POLL)) {
                    handle(record);
                }
                state = State.RUNNING;
                detail = "following " + topic;
                commit(c);
                throttle(c);
            }
            commit(c);
            return null;
        } catch (WakeupException e) {
            return running ? e : null;
        } catch (RuntimeException e) {
            return running ? e : null;
        } finally {
            consumer = null;
            if (current != null) {
                try {
                    current.close(Duration.ofSeconds(2));
                } catch (RuntimeException e) {
                    LOG.debug("{}: closing the consumer failed", NAME, e);
                }
            }
        }
    }

    private void handle(ConsumerRecord<byte[], byte[]> record) {
        TopicPartition tp = new TopicPartition(record.topic(), record.partition());
        // An undecodable notice is dead-lettered by the reader and counts as done.
        Optional<Notice> notice = reader.read(record);
        List<WebhookRegistration> endpoints =
                notice.map(n -> registry.forTenant(n.tenant())).orElse(List.of());
        OffsetTracker.Partition partition = tracker.read(tp, record.offset(), endpoints.size());
        if (endpoints.isEmpty()) {
            return;
        }
        byte[] body = NoticeBody.of(record);
        for (WebhookRegistration endpoint : endpoints) {
            queues.submit(new Delivery(
                    record,
                    endpoint.key(),
                    NoticeBody.messageId(record, endpoint.id()),
                    body,
                    () -> tracker.finished(partition, record.offset())));
        }
    }

    private void commit(Consumer<byte[], byte[]> c) {
        Map<TopicPartition, Long> offsets = tracker.committable();
        if (offsets.isEmpty()) {
            return;
        }
        Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
        offsets.forEach((tp, at) -> commit.put(tp, new OffsetAndMetadata(at)));
        c.commitSync(commit);
        tracker.committed(offsets);
    }

    /** Pauses reading while too many deliveries are open; the consumer keeps polling, so it stays in the group. */
    private void throttle(Consumer<byte[], byte[]> c) {
        if (tracker.pending() >= maxPending) {
            c.pause(c.assignment());
        } else if (!c.paused().isEmpty()) {
            c.resume(c.paused());
        }
    }

    /** Commits what it may before partitions move, and forgets their open deliveries (the new owner redoes them). */
    private final class Rebalance implements ConsumerRebalanceListener {
        private final Consumer<byte[], byte[]> c;

        Rebalance(Consumer<byte[], byte[]> c) {
            this.c = c;
        }

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            try {
                commit(c);
            } catch (RuntimeException e) {
                LOG.warn(
                        "{}: commit before a rebalance failed; the new owner re-delivers from the last commit",
                        NAME,
                        e);
            }
            partitions.forEach(tracker::revoke);
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            partitions.forEach(tracker::revoke);
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            LOG.info("{}: assigned {}", NAME, partitions);
        }
    }
}
