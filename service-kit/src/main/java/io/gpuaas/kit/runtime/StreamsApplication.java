package io.gpuaas.kit.runtime;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A supervised Kafka Streams application: one client at a time, started by the kit's own thread once the start
 * condition holds. A client that reaches ERROR, or whose stream (or global) thread dies, is closed and a new one is
 * started after a backoff (exponential, jitter), counted in {@code restarts}; the application is RECOVERING
 * meanwhile and ready again once the new client is RUNNING. A JVM {@link Error} ends it (DEAD). {@code stop} closes
 * the client within the grace and leaves the group, so another replica takes the tasks at once. See DESIGN.md.
 */
public final class StreamsApplication implements ServiceComponent {

    private static final Logger LOG = LoggerFactory.getLogger(StreamsApplication.class);
    private static final Duration GATE_POLL = Duration.ofMillis(50);

    private final String name;
    private final String applicationId;
    private final StreamsClient.Factory clients;
    private final Gate gate;
    private final Backoff backoff;
    private final Duration closeFailed;
    private final int startOrder;
    private final StreamsMetrics metrics;
    private final CountDownLatch stopping = new CountDownLatch(1);
    private final AtomicInteger failuresInRow = new AtomicInteger();
    private final AtomicInteger restarts = new AtomicInteger();
    private volatile Thread supervisor;
    private volatile Generation current;
    private volatile boolean stopped;
    private volatile String waitingFor;
    private volatile String deadBy;
    private volatile String lastFailure;

    private StreamsApplication(Builder builder) {
        this.name = builder.name;
        this.applicationId = builder.applicationId;
        this.clients = builder.clients;
        this.gate = builder.gate;
        this.backoff = builder.backoff;
        this.closeFailed = builder.closeFailed;
        this.startOrder = builder.startOrder;
        this.metrics = StreamsMetrics.of(name, builder.registry);
    }

    /**
     * @param name       kebab-case component name (health, logs, the {@code application} label of the metrics)
     * @param topology   asked once per client (a fresh topology, or the same one every time)
     * @param properties the Streams configuration, e.g. {@code KafkaClients.streamsConfig(applicationId)} plus a state
     *                   directory; the uncaught exception handler is the kit's
     */
    public static Builder builder(String name, Supplier<Topology> topology, Properties properties) {
        return new Builder(name, String.valueOf(properties.get(StreamsConfig.APPLICATION_ID_CONFIG)))
                .clients(StreamsClient.kafka(topology, properties));
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
        if (supervisor != null || stopped) {
            return;
        }
        waitingFor = gate.condition();
        Thread thread = new Thread(this::supervise, name + "-supervisor");
        thread.setDaemon(true);
        supervisor = thread;
        thread.start();
    }

    /** Closes the client (its open transaction commits) within {@code grace}, leaving the group. */
    @Override
    public void stop(Duration grace) {
        Generation last;
        synchronized (this) {
            stopped = true;
            stopping.countDown();
            last = current;
        }
        if (last != null) {
            last.ended.countDown();
            last.client.close(grace, true);
        }
        Thread running = supervisor;
        if (running == null) {
            return;
        }
        try {
            running.join(grace.plus(closeFailed));
            if (running.isAlive()) {
                running.interrupt();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public ComponentHealth health() {
        Generation now = current;
        return new StreamsStatus(
                        applicationId,
                        supervisor != null,
                        stopped,
                        deadBy,
                        waitingFor,
                        now == null ? null : now.client.state(),
                        now != null && now.reachedRunning,
                        failuresInRow.get(),
                        lastFailure,
                        restarts.get())
                .health();
    }

    /** A store of the current client, or empty while none can answer (starting, restoring, being replaced). */
    public <T> Optional<T> store(StoreQueryParameters<T> parameters) {
        Generation now = current;
        if (now == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(now.client.store(parameters));
        } catch (InvalidStateStoreException e) {
            return Optional.empty();
        }
    }

    /** The supervisor thread: the start condition, then one client after another until stopped or dead. */
    private void supervise() {
        try {
            awaitStartCondition();
            while (!stopped) {
                Generation generation = launch();
                if (generation != null) {
                    generation.ended.await();
                    retire(generation);
                }
                if (stopped || deadBy != null) {
                    return;
                }
                int attempt = failuresInRow.get();
                Duration wait = backoff.delay(attempt);
                LOG.warn(
                        "{}: a new Kafka Streams client in {} ms ({} failure(s) in a row)",
                        name,
                        wait.toMillis(),
                        attempt);
                if (stopping.await(wait.toNanos(), TimeUnit.NANOSECONDS)) {
                    return;
                }
                restarts.incrementAndGet();
                metrics.restarted();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Error e) {
            deadBy = e.toString();
            // Not rethrown: liveness now says the process must restart.
            LOG.error("{}: the Streams supervisor died", name, e);
        }
    }

    private void awaitStartCondition() throws InterruptedException {
        long deadline = System.nanoTime() + gate.atMost().toNanos();
        while (!gate.holds() && System.nanoTime() < deadline) {
            if (stopping.await(GATE_POLL.toNanos(), TimeUnit.NANOSECONDS)) {
                return;
            }
        }
        if (!gate.holds() && !stopped) {
            LOG.warn("{}: {} not true after {}; starting anyway", name, gate.condition(), gate.atMost());
        }
        waitingFor = null;
    }

    /** Creates and starts a client; null (a failure counted) when that throws or the application is stopping. */
    private synchronized Generation launch() {
        if (stopped) {
            return null;
        }
        Generation generation = new Generation();
        try {
            generation.client = clients.create(
                    (now, before) -> stateChanged(generation, now), error -> threadDied(generation, error));
            current = generation;
            generation.client.start();
            return generation;
        } catch (RuntimeException e) {
            LOG.error("{}: a Kafka Streams client could not start", name, e);
            generation.failed(e.toString());
            if (generation.client == null) {
                return null;
            }
            // Created but not started: the supervisor closes it as it would a failed one.
            generation.ended.countDown();
            return generation;
        }
    }

    private void stateChanged(Generation generation, KafkaStreams.State now) {
        if (generation != current) {
            return;
        }
        metrics.state(now);
        if (now == KafkaStreams.State.RUNNING) {
            generation.reachedRunning = true;
            failuresInRow.set(0);
            lastFailure = null;
        } else if (now == KafkaStreams.State.ERROR) {
            // Never close a client from its own threads: the supervisor does it.
            generation.failed("client reached ERROR");
            generation.ended.countDown();
        }
    }

    /** On the dying Streams thread: the client shuts down (ERROR) and the supervisor replaces it, unless it died. */
    private StreamThreadExceptionResponse threadDied(Generation generation, Throwable error) {
        if (isJvmError(error)) {
            deadBy = error.toString();
            LOG.error("{}: a Streams thread died of a JVM error; no new client", name, error);
        } else {
            generation.failed(error.toString());
            LOG.error("{}: a Streams thread failed; the client is replaced after a backoff", name, error);
        }
        return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
    }

    /** Closes the failed client (the supervisor's thread, never the client's own). */
    private void retire(Generation generation) {
        if (stopped) {
            return;
        }
        generation.failed("client ended");
        try {
            generation.client.close(closeFailed, true);
        } catch (RuntimeException e) {
            LOG.warn("{}: closing the failed client failed", name, e);
        }
        synchronized (this) {
            if (current == generation) {
                current = null;
                metrics.state(null);
            }
        }
    }

    static boolean isJvmError(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof Error) {
                return true;
            }
        }
        return false;
    }

    /** One client's life: its failure is counted once, whoever notices it first. */
    private final class Generation {
        private final CountDownLatch ended = new CountDownLatch(1);
        private final AtomicBoolean counted = new AtomicBoolean();
        private volatile StreamsClient client;
        private volatile boolean reachedRunning;

        void failed(String why) {
            if (counted.compareAndSet(false, true)) {
                failuresInRow.incrementAndGet();
                lastFailure = why;
            }
        }
    }

    /** The condition the first client waits for, polled; after {@code atMost} it starts anyway. */
    private record Gate(String condition, BooleanSupplier ready, Duration atMost) {
        boolean holds() {
            try {
                return ready.getAsBoolean();
            } catch (RuntimeException e) {
                return false;
            }
        }
    }

    /** Options of a {@link StreamsApplication}. */
    public static final class Builder {
        private final String name;
        private final String applicationId;
        private StreamsClient.Factory clients;
        private Gate gate = new Gate("nothing", () -> true, Duration.ZERO);
        private Backoff backoff = new Backoff(Duration.ofMillis(250), Duration.ofSeconds(10));
        private Duration closeFailed = Duration.ofSeconds(10);
        private PrometheusRegistry registry = new PrometheusRegistry();
        private int startOrder;

        Builder(String name, String applicationId) {
            this.name = Objects.requireNonNull(name, "name");
            this.applicationId = applicationId;
        }

        Builder clients(StreamsClient.Factory factory) {
            this.clients = Objects.requireNonNull(factory, "clients");
            return this;
        }

        /**
         * The first client starts once {@code ready} is true (polled every 50 ms), or after {@code atMost} anyway
         * (logged); {@code condition} names it in health and logs, e.g. "informers synced".
         */
        public Builder startWhen(String condition, BooleanSupplier ready, Duration atMost) {
            this.gate = new Gate(condition, ready, atMost);
            return this;
        }

        /** Wait before a new client: doubling from {@code initial} to {@code max}, with jitter. Default 250 ms, 10 s. */
        public Builder backoff(Duration initial, Duration max) {
            this.backoff = new Backoff(initial, max);
            return this;
        }

        /** How long closing a failed client may take. Default 10 s. */
        public Builder closeTimeout(Duration timeout) {
            this.closeFailed = timeout;
            return this;
        }

        /** Where {@code gpuaas_streams_*} are registered (the service's registry). Default a private one. */
        public Builder metrics(PrometheusRegistry prometheus) {
            this.registry = Objects.requireNonNull(prometheus, "registry");
            return this;
        }

        public Builder startOrder(int order) {
            this.startOrder = order;
            return this;
        }

        public StreamsApplication build() {
            Objects.requireNonNull(clients, "clients");
            return new StreamsApplication(this);
        }
    }
}
