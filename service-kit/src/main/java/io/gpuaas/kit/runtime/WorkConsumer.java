package io.gpuaas.kit.runtime;

import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.EventReader;
import io.gpuaas.kit.runtime.ComponentHealth.State;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.Collection;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Consumes one topic in a consumer group and hands each record to the service's {@link Work}, which completes it
 * later and in any order. The committed offset of a partition is its first unfinished record (with the finished
 * ones after it named in the commit metadata, {@link OffsetTracker}), committed now and then, before partitions move
 * and on stop; so a replacement, a rebalance or a kill -9 redoes what was open and never skips a record. A partition
 * with too many open records is paused. Undecodable records are dead-lettered by the reader, and a record whose
 * work fails is dead-lettered here. Any consumer or commit failure ends the session: everything open is forgotten
 * and after a backoff a new consumer resumes from the committed offsets (RECOVERING meanwhile). See DESIGN.md.
 *
 * @param <V> the topic's value type
 * @param <R> what a finished record leaves for the {@link Committer} (Void when nothing)
 */
public final class WorkConsumer<V, R> implements ServiceComponent {

    private static final Logger LOG = LoggerFactory.getLogger(WorkConsumer.class);

    /** The service's side: start the work of one record, learn of partitions it no longer owns. */
    public interface Work<V, R> {

        /**
         * Starts the work of one decoded record; must not block. The stage completes when the work is done (its
         * value is committed with the offset past it); completed exceptionally, the record is dead-lettered.
         */
        CompletionStage<R> start(ConsumerRecord<byte[], byte[]> record, V value);

        /**
         * {@code partitions} were taken away (a rebalance, or the consumer being replaced): drop what is pending
         * for them; their open records are the next owner's to redo, and completing them now changes nothing.
         */
        default void revoked(Collection<TopicPartition> partitions) {}
    }

    /** Something the consumer waits for before its first poll (e.g. a replica the work reads from). */
    @FunctionalInterface
    public interface Gate {
        /** Waits at most {@code timeout}; whether the consumer may start. */
        boolean await(Duration timeout) throws InterruptedException;
    }

    /** What the builder fixed. */
    record Settings<V, R>(
            String name,
            Supplier<Consumer<byte[], byte[]>> consumers,
            String topic,
            EventReader<V> reader,
            DeadLetterPublisher deadLetters,
            Work<V, R> work,
            Committer<R> committer,
            int maxOpenPerPartition,
            Duration commitInterval,
            Backoff backoff,
            Gate gate,
            WorkMetrics metrics) {}

    private final Settings<V, R> settings;
    private final int startOrder;
    private final OffsetTracker<R> tracker = new OffsetTracker<>();
    private final ReplicaStatus status;
    private volatile Duration grace = Duration.ofSeconds(10);
    private Thread thread;

    private WorkConsumer(Settings<V, R> settings, int startOrder) {
        this.settings = settings;
        this.startOrder = startOrder;
        this.status = new ReplicaStatus(settings.name());
    }

    /**
     * @param name        kebab-case component name, also the consumer thread's name and the metrics label
     * @param consumers   makes a new byte-array consumer in the service's group, without auto-commit and without
     *                    topic auto-creation (from {@code KafkaClients.consumerConfig(group)})
     * @param topic       the full topic name
     * @param reader      decodes values and dead-letters what cannot be read
     * @param deadLetters where records whose work failed go
     * @param work        the service's handler
     */
    public static <V, R> Builder<V, R> builder(
            String name,
            Supplier<Consumer<byte[], byte[]>> consumers,
            String topic,
            EventReader<V> reader,
            DeadLetterPublisher deadLetters,
            Work<V, R> work) {
        return new Builder<>(name, consumers, topic, reader, deadLetters, work);
    }

    @Override
    public String name() {
        return settings.name();
    }

    @Override
    public int startOrder() {
        return startOrder;
    }

    @Override
    public synchronized void start() {
        if (thread != null || !status.running()) {
            return;
        }
        thread = new Thread(this::run, settings.name());
        thread.setDaemon(true);
        thread.start();
    }

    /** Stops reading, lets open work finish within half the grace, commits what finished, then closes. */
    @Override
    public void stop(Duration grace) {
        Thread running;
        synchronized (this) {
            this.grace = grace;
            status.stop();
            running = thread;
        }
        if (running == null) {
            status.status(State.STOPPED, "stopped before start");
            return;
        }
        try {
            running.join(grace.plusSeconds(5));
            if (running.isAlive()) {
                running.interrupt();
                running.join(Duration.ofSeconds(5));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public ComponentHealth health() {
        ComponentHealth health = status.health(true);
        return new ComponentHealth(
                health.state(), true, health.detail() + "; " + tracker.open() + " records open", health.restarts());
    }

    /** Records handed to the work and not finished. */
    public int open() {
        return tracker.open();
    }

    private void run() {
        boolean dead = false;
        try {
            if (!passGate()) {
                return;
            }
            while (status.running()) {
                RuntimeException failure = new WorkSession<>(settings, tracker, status).run(() -> grace);
                if (failure == null || !status.running()) {
                    break;
                }
                Duration wait = settings.backoff().delay(status.failed());
                status.status(
                        State.RECOVERING,
                        "consumer failed (" + failure.getClass().getSimpleName() + "); new consumer in "
                                + wait.toMillis() + " ms");
                LOG.warn(
                        "{}: consumer failed; a new one resumes from the committed offsets in {} ms",
                        settings.name(),
                        wait.toMillis(),
                        failure);
                status.pause(wait);
            }
        } catch (Error e) {
            dead = true;
            status.status(State.DEAD, "died: " + e);
            // Logged, not rethrown: the thread ends either way, and liveness now says the process must restart.
            LOG.error("{}: died; {} is no longer consumed", settings.name(), settings.topic(), e);
        } finally {
            if (!dead) {
                status.status(State.STOPPED, "stopped");
            }
        }
    }

    private boolean passGate() {
        status.status(State.STARTING, "waiting before the first poll");
        try {
            while (status.running() && !settings.gate().await(Duration.ofSeconds(1))) {
                LOG.debug("{}: still waiting before the first poll", settings.name());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        return status.running();
    }

    /** Options of a {@link WorkConsumer}. */
    public static final class Builder<V, R> {
        private final String name;
        private final Supplier<Consumer<byte[], byte[]>> consumers;
        private final String topic;
        private final EventReader<V> reader;
        private final DeadLetterPublisher deadLetters;
        private final Work<V, R> work;
        private Committer<R> committer = Committer.offsets();
        private int maxOpenPerPartition = 100;
        private Duration commitInterval = Duration.ofMillis(200);
        private Backoff backoff = new Backoff(Duration.ofMillis(500), Duration.ofSeconds(30));
        private Gate gate = timeout -> true;
        private PrometheusRegistry registry = new PrometheusRegistry();
        private int startOrder;

        private Builder(
                String name,
                Supplier<Consumer<byte[], byte[]>> consumers,
                String topic,
                EventReader<V> reader,
                DeadLetterPublisher deadLetters,
                Work<V, R> work) {
            this.name = Objects.requireNonNull(name, "name");
            this.consumers = Objects.requireNonNull(consumers, "consumers");
            this.topic = Objects.requireNonNull(topic, "topic");
            this.reader = Objects.requireNonNull(reader, "reader");
            this.deadLetters = Objects.requireNonNull(deadLetters, "deadLetters");
            this.work = Objects.requireNonNull(work, "work");
        }

        /** How offsets (and results) are committed. Default: {@link Committer#offsets()}. */
        public Builder<V, R> committer(Committer<R> committer) {
            this.committer = Objects.requireNonNull(committer, "committer");
            return this;
        }

        /** Open records in one partition before it is paused. Default 100. */
        public Builder<V, R> maxOpenPerPartition(int max) {
            if (max < 1) {
                throw new IllegalArgumentException(name + ": maxOpenPerPartition must be at least 1, got " + max);
            }
            this.maxOpenPerPartition = max;
            return this;
        }

        /** How often finished work is committed while running. Default 200 ms. */
        public Builder<V, R> commitInterval(Duration interval) {
            this.commitInterval = Objects.requireNonNull(interval, "interval");
            return this;
        }

        /** Backoff with jitter before a new consumer after a failed one. Default 500 ms to 30 s. */
        public Builder<V, R> backoff(Duration initial, Duration max) {
            this.backoff = new Backoff(initial, max);
            return this;
        }

        /** Waited for before the first poll (after every start, not per session). Default: none. */
        public Builder<V, R> startAfter(Gate gate) {
            this.gate = Objects.requireNonNull(gate, "gate");
            return this;
        }

        /** Where the {@code gpuaas_work_*} series are registered. Default: a private registry. */
        public Builder<V, R> metrics(PrometheusRegistry registry) {
            this.registry = Objects.requireNonNull(registry, "registry");
            return this;
        }

        public Builder<V, R> startOrder(int order) {
            this.startOrder = order;
            return this;
        }

        public WorkConsumer<V, R> build() {
            return new WorkConsumer<>(
                    new Settings<>(
                            name,
                            consumers,
                            topic,
                            reader,
                            deadLetters,
                            work,
                            committer,
                            maxOpenPerPartition,
                            commitInterval,
                            backoff,
                            gate,
                            WorkMetrics.of(name, registry)),
                    startOrder);
        }
    }
}
