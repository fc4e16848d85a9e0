package io.gpuaas.kit.runtime;

import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.TopicSpec;
import io.gpuaas.kit.runtime.ComponentHealth.State;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps an in-memory replica of one or more topics: every partition assigned by hand (no consumer group: each
 * instance needs all of them), each topic from its beginning or its end, records applied in partition order on one
 * thread. Undecodable records are dead-lettered and the partition moves on; a failing handler is retried with
 * backoff (RECOVERING meanwhile), then its record is dead-lettered. Any other failure replaces the consumer after a
 * backoff, resuming at the first unapplied offset of each partition: nothing skipped, nothing applied twice. Only a
 * JVM {@link Error} ends it ({@link State#DEAD}). See DESIGN.md.
 */
public final class TopicReplica implements ServiceComponent {

    private static final Logger LOG = LoggerFactory.getLogger(TopicReplica.class);

    /** Applies one record to the replica; may throw (retried, then dead-lettered). */
    public interface RecordHandler<T> {
        /** {@code valueOrNullOnDelete} is null only for a delete (tombstone) on a compacted topic. */
        void apply(String key, T valueOrNullOnDelete);
    }

    /** Where a topic is read from the first time: all history, or only what is written from now on. */
    public enum StartAt {
        BEGINNING,
        END
    }

    private final String name;
    private final Supplier<Consumer<byte[], byte[]>> consumers;
    private final DeadLetterPublisher deadLetters;
    private final Map<String, ReplicaRoute<?>> routes;
    private final ReplicaSettings settings;
    private final int startOrder;
    private final ReplicaProgress progress = new ReplicaProgress();
    private final ReplicaStatus status;
    private volatile Thread thread;
    private volatile Consumer<byte[], byte[]> consumer;

    private TopicReplica(Builder builder) {
        this.name = builder.name;
        this.consumers = builder.consumers;
        this.deadLetters = builder.deadLetters;
        this.routes = Map.copyOf(builder.routes);
        this.settings = builder.settings;
        this.startOrder = builder.startOrder;
        this.status = new ReplicaStatus(name);
    }

    /**
     * @param name        kebab-case component name, also the consumer thread's name
     * @param consumers   makes a new byte-array consumer without a group (e.g. {@code KafkaClients::replicaConsumer})
     * @param topicPrefix the deployment's topic prefix ({@code KafkaSettings.topicPrefix()})
     * @param deadLetters where undecodable records and records the handler gave up on go
     */
    public static Builder builder(
            String name,
            Supplier<Consumer<byte[], byte[]>> consumers,
            String topicPrefix,
            DeadLetterPublisher deadLetters) {
        return new Builder(name, consumers, topicPrefix, deadLetters);
    }

    @Override
    public String name() {
        return name;
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
        thread = new Thread(this::run, name);
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void stop(Duration grace) {
        Thread running;
        synchronized (this) {
            status.stop();
            running = thread;
        }
        Consumer<byte[], byte[]> current = consumer;
        if (current != null) {
            current.wakeup();
        }
        if (running == null) {
            status.status(State.STOPPED, "stopped before start");
            return;
        }
        try {
            running.join(grace);
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
        return status.health(progress.caughtUp());
    }

    /** Whether every partition reached the end offset seen when it was first assigned (and no topic is missing). */
    public boolean caughtUp() {
        return progress.caughtUp();
    }

    /** Waits until {@link #caughtUp()}; false on timeout. */
    public boolean awaitCaughtUp(Duration timeout) throws InterruptedException {
        return progress.latch().await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    private void run() {
        boolean dead = false;
        try {
            while (status.running()) {
                RuntimeException failure = session();
                if (failure == null || !status.running()) {
                    break;
                }
                Duration wait = settings.backoff().delay(status.failed());
                status.status(
                        State.RECOVERING,
                        "consumer failed (" + failure + "); new consumer in " + wait.toMillis() + " ms");
                LOG.warn("{}: consumer failed; a new one resumes in {} ms", name, wait.toMillis(), failure);
                status.pause(wait);
            }
        } catch (Error e) {
            dead = true;
            status.status(State.DEAD, "died: " + e);
            // Logged, not rethrown: the thread ends either way, and liveness now says the process must restart.
            LOG.error("{}: died; the replica no longer follows its topics", name, e);
        } finally {
            if (!dead) {
                status.status(State.STOPPED, "stopped");
            }
        }
    }

    /** One consumer's life; the failure that ended it, or null when the replica stopped. */
    private RuntimeException session() {
        Consumer<byte[], byte[]> current = null;
        try {
            current = consumers.get();
            consumer = current;
            if (!status.running()) {
                return null;
            }
            new ReplicaSession(current, routes, progress, status, settings, deadLetters).run();
            return null;
        } catch (RuntimeException e) {
            return status.running() ? e : null;
        } finally {
            consumer = null;
            close(current);
        }
    }

    private void close(Consumer<byte[], byte[]> current) {
        if (current == null) {
            return;
        }
        try {
            current.close(Duration.ofSeconds(2));
        } catch (RuntimeException e) {
            LOG.debug("{}: closing the consumer failed", name, e);
        }
    }

    /** Options of a {@link TopicReplica}. */
    public static final class Builder {
        private final String name;
        private final Supplier<Consumer<byte[], byte[]>> consumers;
        private final String topicPrefix;
        private final DeadLetterPublisher deadLetters;
        private final Map<String, ReplicaRoute<?>> routes = new LinkedHashMap<>();
        private ReplicaSettings settings = ReplicaSettings.defaults();
        private int startOrder;

        private Builder(
                String name,
                Supplier<Consumer<byte[], byte[]>> consumers,
                String topicPrefix,
                DeadLetterPublisher deadLetters) {
            this.name = Objects.requireNonNull(name, "name");
            this.consumers = Objects.requireNonNull(consumers, "consumers");
            this.topicPrefix = Objects.requireNonNull(topicPrefix, "topicPrefix");
            this.deadLetters = Objects.requireNonNull(deadLetters, "deadLetters");
        }

        /** Follows {@code topic} from {@code from}, handing every decoded record to {@code handler}. */
        public <T> Builder follow(TopicSpec<String, T> topic, StartAt from, RecordHandler<T> handler) {
            ReplicaRoute<T> route = ReplicaRoute.of(topic, topicPrefix, from, handler, deadLetters);
            if (routes.putIfAbsent(route.topic(), route) != null) {
                throw new IllegalArgumentException(name + " already follows " + route.topic());
            }
            return this;
        }

        /** Restart backoff with jitter (also between attempts of a failing handler). Default 500 ms to 30 s. */
        public Builder backoff(Duration initial, Duration max) {
            settings = settings.withBackoff(new Backoff(initial, max));
            return this;
        }

        /** Calls of the handler for one record before it is dead-lettered. Default 5. */
        public Builder handlerRetries(int attempts) {
            settings = settings.withHandlerAttempts(attempts);
            return this;
        }

        /**
         * How soon a broker that went away is noticed: end offsets are asked for every {@code probeInterval}, and
         * broker calls time out after {@code timeout}. Default 5 s and 10 s.
         */
        public Builder probe(Duration probeInterval, Duration timeout) {
            settings = settings.withProbe(timeout, probeInterval);
            return this;
        }

        public Builder startOrder(int order) {
            this.startOrder = order;
            return this;
        }

        public TopicReplica build() {
            if (routes.isEmpty()) {
                throw new IllegalStateException(name + " follows no topic");
            }
            return new TopicReplica(this);
        }
    }
}
