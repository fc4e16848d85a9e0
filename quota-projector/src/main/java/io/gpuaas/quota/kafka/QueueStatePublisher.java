package io.gpuaas.quota.kafka;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.gpuaas.events.quota.QueueState;
import io.gpuaas.events.quota.QueueStateEvent;
import io.gpuaas.kit.runtime.ComponentHealth;
import io.gpuaas.kit.runtime.ReconcileLoop;
import io.gpuaas.kit.runtime.ReconcileLoop.Outcome;
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
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Queue state straight from the informers, as a service-kit reconcile loop ({@code quota-state}) keyed by queue: a
 * Workload, ClusterQueue or LocalQueue change enqueues the queues it touches (a key is pending once however often it
 * is touched, so a burst makes one record); reconciling a queue recomputes it from the caches and publishes it to the
 * compacted topic when it differs from the last one Kafka acknowledged. A publish that fails is retried by the loop
 * with backoff, so the queue's newest state reaches the topic without waiting for the queue to change again. Going
 * through the Workload topic instead would add a consumer hop and miss Workloads that have no condition yet.
 */
public final class QueueStatePublisher implements AutoCloseable {

    static final String LOOP = "quota-state";
    /** Enough to keep a takeover's publish of every queue short while each send waits for Kafka's ack. */
    private static final int WORKERS = 4;

    private static final Duration BACKOFF_INITIAL = Duration.ofMillis(200);
    private static final Duration BACKOFF_MAX = Duration.ofSeconds(10);
    private static final Duration SEND_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration STOP_GRACE = Duration.ofSeconds(2);

    private final Producer<String, QueueStateEvent> producer;
    private final String topic;
    private final QueueStates states;
    private final Clock clock;
    private final QuotaProjectorMetrics metrics;
    /** When each pending queue was first touched since its last publish (the lag metric). */
    private final Map<QueueKey, Long> dirtySince = new ConcurrentHashMap<>();
    /** What Kafka acknowledged last per queue; only a reconcile of that key reads or writes its entry. */
    private final Map<QueueKey, QueueState> lastSent = new ConcurrentHashMap<>();

    private final ReconcileLoop<QueueKey> loop;

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
        this.loop = ReconcileLoop.<QueueKey>builder(LOOP, this::publish)
                .workers(WORKERS)
                .backoff(BACKOFF_INITIAL, BACKOFF_MAX)
                .metrics(metrics.registry())
                .build();
    }

    /** Publishes every queue once, then follows changes. */
    public void start() {
        loop.start();
        states.allQueues().forEach(this::touched);
    }

    /** Informer listener: the queues {@code change} touches are published again. */
    public void onChange(Change change) {
        states.touchedBy(change).forEach(this::touched);
    }

    /** Whether nothing is pending, waiting for a retry or being published. */
    public boolean idle() {
        return loop.idle();
    }

    /** The loop's health: RECOVERING while one queue failed to publish several times in a row. */
    public ComponentHealth health() {
        return loop.health();
    }

    private void touched(QueueKey key) {
        dirtySince.putIfAbsent(key, System.nanoTime());
        loop.enqueue(key);
    }

    /** One queue: its state now, sent when it differs from what Kafka holds; a failed send throws (retried). */
    private Outcome publish(QueueKey key) throws Exception {
        Long since = dirtySince.remove(key);
        try {
            HasMetadata queue = states.queueObject(key).orElse(null);
            if (queue == null) {
                if (lastSent.containsKey(key)) {
                    send(key, null);
                    lastSent.remove(key);
                }
                return Outcome.done();
            }
            QueueState state = states.state(key, queue, clock.instant());
            if (QueueStateProjection.sameState(lastSent.get(key), state)) {
                return Outcome.done();
            }
            send(key, state);
            lastSent.put(key, state);
            if (since != null) {
                metrics.queueState(key.kind().name(), (System.nanoTime() - since) / 1e9);
            }
            return Outcome.done();
        } catch (InterruptedException e) {
            throw e; // stopping: the next term publishes every queue again
        } catch (Exception e) {
            if (since != null) {
                dirtySince.putIfAbsent(key, since);
            }
            throw new IllegalStateException("cannot publish queue state " + key.recordKey() + ": " + e, e);
        }
    }

    private void send(QueueKey key, QueueState state) throws Exception {
        producer.send(new ProducerRecord<>(topic, key.recordKey(), state))
                .get(SEND_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        loop.stop(STOP_GRACE);
    }
}
