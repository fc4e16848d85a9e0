package io.gpuaas.quota.kafka;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.gpuaas.events.quota.QueueState;
import io.gpuaas.events.quota.QueueStateEvent;
import io.gpuaas.quota.k8s.Change;
import io.gpuaas.quota.k8s.ClusterCache;
import io.gpuaas.quota.k8s.QueueKey;
import io.gpuaas.quota.k8s.QueueStates;
import io.gpuaas.quota.metrics.QuotaProjectorMetrics;
import io.gpuaas.quota.model.QueueStateProjection;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Queue state straight from the informers: a Workload, ClusterQueue or LocalQueue change marks the queues it
 * touches dirty; one thread recomputes each dirty queue from the cache a few milliseconds later (so a burst of
 * changes makes one record) and publishes it to the compacted topic when it differs from the last one sent. Going
 * through the Workload topic instead would add a consumer hop and miss Workloads that have no condition yet.
 */
public final class QueueStatePublisher implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(QueueStatePublisher.class);
    private static final Duration BATCH = Duration.ofMillis(5);

    private final Producer<String, QueueStateEvent> producer;
    private final String topic;
    private final QueueStates states;
    private final Clock clock;
    private final QuotaProjectorMetrics metrics;
    private final Map<QueueKey, Long> dirtySince = new ConcurrentHashMap<>();
    private final Map<QueueKey, QueueState> lastSent = new ConcurrentHashMap<>();
    private final Object signal = new Object();
    private final Thread thread;
    private volatile boolean running = true;

    public QueueStatePublisher(
            Producer<String, QueueStateEvent> producer,
            String topic,
            ClusterCache cache,
            Clock clock,
            QuotaProjectorMetrics metrics) {
        this.producer = producer;
        this.topic = topic;
        this.states = new QueueStates(cache);
        this.clock = clock;
        this.metrics = metrics;
        this.thread = new Thread(this::run, "quota-state");
        this.thread.setDaemon(true);
    }

    /** Publishes every queue once, then follows changes. */
    public void start() {
        states.allQueues().forEach(this::markDirty);
        thread.start();
    }

    public void onChange(Change change) {
        states.touchedBy(change).forEach(this::markDirty);
    }

    private void markDirty(QueueKey key) {
        dirtySince.putIfAbsent(key, System.nanoTime());
        synchronized (signal) {
            signal.notifyAll();
        }
    }

    private void run() {
        while (running) {
            try {
                synchronized (signal) {
                    if (dirtySince.isEmpty()) {
                        signal.wait(500);
                    }
                }
                Thread.sleep(BATCH.toMillis());
                for (QueueKey key : dirtySince.keySet()) {
                    Long since = dirtySince.remove(key);
                    if (since != null) {
                        publish(key, since);
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                LOG.warn("queue state round failed: {}", e.toString());
            }
        }
    }

    private void publish(QueueKey key, long since) {
        HasMetadata queue = states.queueObject(key).orElse(null);
        if (queue == null) {
            if (lastSent.remove(key) != null) {
                producer.send(new ProducerRecord<>(topic, key.recordKey(), null));
            }
            return;
        }
        QueueState state = states.state(key, queue, clock.instant());
        if (QueueStateProjection.sameState(lastSent.get(key), state)) {
            return;
        }
        lastSent.put(key, state);
        producer.send(new ProducerRecord<>(topic, key.recordKey(), state), (metadata, error) -> {
            if (error != null) {
                lastSent.remove(key);
                LOG.warn("cannot publish queue state {}: {}", key.recordKey(), error.toString());
                markDirty(key);
            } else {
                metrics.queueState(key.kind().name(), (System.nanoTime() - since) / 1e9);
            }
        });
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
