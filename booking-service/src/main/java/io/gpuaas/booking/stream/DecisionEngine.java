package io.gpuaas.booking.stream;

import io.gpuaas.booking.config.BookingSettings;
import io.gpuaas.booking.config.EngineTuning;
import io.gpuaas.booking.config.LifecycleSettings;
import io.gpuaas.booking.metrics.BookingMetrics;
import io.gpuaas.booking.model.BookingDecider;
import io.gpuaas.booking.model.WorkloadCells;
import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.kit.runtime.ComponentHealth;
import io.gpuaas.kit.runtime.ComponentHealth.State;
import io.gpuaas.kit.runtime.ServiceComponent;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka Streams application of the decisions and the lifecycle ({@link BookingTopology},
 * {@link LifecycleTopology}) as a service component: started and stopped by the kit's
 * {@code ServiceLifecycle}, its health in the kit's readiness and liveness. A failed stream thread is replaced after
 * a backoff (its tasks restore from the local store or the changelog); a client that ends in {@code ERROR}, or
 * cannot be created, is closed and replaced by a new one after a backoff. Meanwhile the engine is RECOVERING, so the
 * instance is unready. Ready once a client reached RUNNING (a rebalance later does not take it out of traffic: with
 * two replicas every rollout rebalances both). The gpuaas topics exist before it starts: the operator creates them
 * (Strimzi KafkaTopics, the local stack's super user); this service's Kafka user may not.
 */
@Singleton
public class DecisionEngine implements ServiceComponent {

    public static final String NAME = "decision-engine";

    /** After the booking feed: the engine stops first, and its last commit still reaches the feed's readers. */
    public static final int START_ORDER = 10;

    private static final Logger LOG = LoggerFactory.getLogger(DecisionEngine.class);
    private static final Duration FIRST_RETRY = Duration.ofMillis(250);
    private static final Duration LAST_RETRY = Duration.ofSeconds(10);
    private static final Duration CLOSE_FAILED = Duration.ofSeconds(10);

    private final Topology topology;
    private final Properties properties;
    private final String applicationId;
    private final ExecutorService supervisor = Executors.newSingleThreadExecutor(r -> {
        Thread thread = new Thread(r, NAME + "-supervisor");
        thread.setDaemon(true);
        return thread;
    });
    private final CountDownLatch stopping = new CountDownLatch(1);
    private final AtomicInteger failuresInRow = new AtomicInteger();
    private final AtomicInteger restarts = new AtomicInteger();
    private volatile KafkaStreams streams;
    private volatile boolean started;
    private volatile boolean stopped;
    private volatile boolean everRunning;
    private volatile boolean replacing;
    private volatile String lastFailure;

    public DecisionEngine(
            KafkaClients clients,
            BookingSettings settings,
            EngineTuning tuning,
            BookingDecider decider,
            LifecycleSettings lifecycle,
            PoolCatalog pools,
            BookingMetrics metrics,
            DeadLetterPublisher deadLetters) {
        String prefix = clients.settings().topicPrefix();
        Topology decisions = BookingTopology.build(prefix, decider, settings.tick(), settings.retention(), metrics);
        this.topology = LifecycleTopology.addTo(
                decisions,
                prefix,
                lifecycle.rules(pools),
                new WorkloadCells(pools),
                lifecycle.interval(),
                deadLetters,
                metrics);
        LOG.info("booking lifecycle: {}", lifecycle);
        this.applicationId = settings.applicationId();
        this.properties = new Properties();
        properties.putAll(clients.streamsConfig(applicationId));
        properties.put(StreamsConfig.STATE_DIR_CONFIG, stateDir(settings));
        properties.putAll(tuning.streamsProperties());
        // One publisher for every client this engine creates: its producer outlives any one of them.
        properties.putAll(BookingTopology.errorHandling(deadLetters));
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int startOrder() {
        return START_ORDER;
    }

    @Override
    public synchronized void start() {
        if (started || stopped) {
            return;
        }
        started = true;
        launch();
        LOG.info("decision engine {}: {}", applicationId, topology.describe());
    }

    /** Creates and starts a client; a failure schedules the next attempt. Callers hold the lock. */
    private void launch() {
        try {
            KafkaStreams fresh = new KafkaStreams(topology, properties);
            fresh.setUncaughtExceptionHandler(this::threadFailed);
            fresh.setStateListener(this::stateChanged);
            everRunning = false;
            streams = fresh;
            fresh.start();
            replacing = false;
        } catch (RuntimeException e) {
            LOG.error("decision engine could not start; retrying", e);
            lastFailure = e.toString();
            replace();
        }
    }

    /** On the dying stream thread: wait a backoff, then let Streams start a replacement thread. */
    private StreamThreadExceptionResponse threadFailed(Throwable error) {
        int failures = failuresInRow.incrementAndGet();
        restarts.incrementAndGet();
        lastFailure = error.toString();
        Duration wait = backoff(failures);
        LOG.error(
                "decision stream thread failed ({} in a row); replacing it in {} ms (state restores from the "
                        + "changelog)",
                failures,
                wait.toMillis(),
                error);
        pause(wait);
        return StreamThreadExceptionResponse.REPLACE_THREAD;
    }

    private void stateChanged(KafkaStreams.State now, KafkaStreams.State before) {
        if (now == KafkaStreams.State.RUNNING) {
            everRunning = true;
            failuresInRow.set(0);
            lastFailure = null;
        } else if (now == KafkaStreams.State.ERROR && !stopped) {
            // Never close a client from its own listener: the supervisor does it.
            replace();
        }
    }

    /** Closes the current client and starts a new one after a backoff, off the caller's thread. */
    private void replace() {
        replacing = true;
        supervisor.execute(() -> {
            KafkaStreams failed;
            synchronized (this) {
                failed = streams;
                streams = null;
            }
            if (failed != null) {
                failed.close(CLOSE_FAILED);
            }
            restarts.incrementAndGet();
            if (!pause(backoff(failuresInRow.incrementAndGet()))) {
                return;
            }
            synchronized (this) {
                if (!stopped) {
                    launch();
                }
            }
        });
    }

    /** Closes the client, committing the open transaction, and leaves the group so another replica takes over now. */
    @Override
    public void stop(Duration grace) {
        KafkaStreams current;
        synchronized (this) {
            stopped = true;
            stopping.countDown();
            current = streams;
        }
        supervisor.shutdownNow();
        if (current != null) {
            current.close(new KafkaStreams.CloseOptions().timeout(grace).leaveGroup(true));
        }
    }

    @Override
    public ComponentHealth health() {
        KafkaStreams current = streams;
        KafkaStreams.State state = current == null ? null : current.state();
        String detail = "application " + applicationId + ": " + (state == null ? "no client" : state.name());
        int count = restarts.get();
        if (stopped) {
            return new ComponentHealth(State.STOPPED, false, detail, count);
        }
        if (!started || state == KafkaStreams.State.CREATED) {
            return new ComponentHealth(State.STARTING, false, detail, count);
        }
        String failure = lastFailure;
        boolean working = state == KafkaStreams.State.RUNNING || state == KafkaStreams.State.REBALANCING;
        if (replacing || failuresInRow.get() > 0 || !working) {
            String why = failure == null ? detail : detail + "; last failure: " + failure;
            return new ComponentHealth(State.RECOVERING, everRunning, why, count);
        }
        return new ComponentHealth(State.RUNNING, everRunning, detail, count);
    }

    /**
     * The lifecycle's global store of Workloads ({@link LifecycleTopology#PRESENCE_STORE}, as {@code WorkloadIndex}
     * writes it), read-only, for the dashboard; empty while no client can answer (starting, restoring, replaced).
     */
    public Optional<ReadOnlyKeyValueStore<String, byte[]>> workloadPresence() {
        KafkaStreams current = streams;
        if (current == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(current.store(StoreQueryParameters.fromNameAndType(
                    LifecycleTopology.PRESENCE_STORE, QueryableStoreTypes.<String, byte[]>keyValueStore())));
        } catch (InvalidStateStoreException e) {
            return Optional.empty();
        }
    }

    /** Waits unless the engine stops meanwhile; false when it is stopping. */
    private boolean pause(Duration wait) {
        try {
            return !stopping.await(wait.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Doubling from {@link #FIRST_RETRY} up to {@link #LAST_RETRY}, drawn from the upper half (jitter). */
    static Duration backoff(int attempt) {
        long ceiling = FIRST_RETRY.toMillis() << Math.min(Math.max(attempt - 1, 0), 16);
        ceiling = Math.min(ceiling, LAST_RETRY.toMillis());
        return Duration.ofMillis(ceiling / 2 + ThreadLocalRandom.current().nextLong(ceiling / 2 + 1));
    }

    private static String stateDir(BookingSettings settings) {
        if (settings.stateDir() != null) {
            return settings.stateDir();
        }
        try {
            return Files.createTempDirectory("booking-state").toString();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a state directory", e);
        }
    }
}
