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
import io.gpuaas.kit.runtime.ServiceComponent;
import io.gpuaas.kit.runtime.StreamsApplication;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka Streams application of the decisions and the lifecycle ({@link BookingTopology},
 * {@link LifecycleTopology}) as a service component, supervised by the kit's {@link StreamsApplication}: a client
 * that reaches ERROR, or whose stream or global thread dies, is closed and replaced after a backoff (250 ms doubling
 * to 10 s, jitter; its tasks restore from the local store or the changelog), RECOVERING meanwhile, so the instance is
 * unready. Ready once a client reached RUNNING (a rebalance later does not take it out of traffic: with two replicas
 * every rollout rebalances both). The gpuaas topics exist before it starts: the operator creates them (Strimzi
 * KafkaTopics, the local stack's super user); this service's Kafka user may not.
 */
@Singleton
public class DecisionEngine implements ServiceComponent {

    public static final String NAME = "decision-engine";

    /** After the booking feed: the engine stops first, and its last commit still reaches the feed's readers. */
    public static final int START_ORDER = 10;

    private static final Logger LOG = LoggerFactory.getLogger(DecisionEngine.class);

    private final StreamsApplication application;

    public DecisionEngine(
            KafkaClients clients,
            BookingSettings settings,
            EngineTuning tuning,
            BookingDecider decider,
            LifecycleSettings lifecycle,
            PoolCatalog pools,
            BookingMetrics metrics,
            DeadLetterPublisher deadLetters,
            PrometheusRegistry registry) {
        String prefix = clients.settings().topicPrefix();
        Topology decisions = BookingTopology.build(prefix, decider, settings.tick(), settings.retention(), metrics);
        Topology topology = LifecycleTopology.addTo(
                decisions,
                prefix,
                lifecycle.rules(pools),
                new WorkloadCells(pools),
                lifecycle.interval(),
                deadLetters,
                metrics);
        LOG.info("booking lifecycle: {}", lifecycle);
        LOG.info("decision engine {}: {}", settings.applicationId(), topology.describe());
        Properties properties = new Properties();
        properties.putAll(clients.streamsConfig(settings.applicationId()));
        properties.put(StreamsConfig.STATE_DIR_CONFIG, stateDir(settings));
        properties.putAll(tuning.streamsProperties());
        // One publisher for every client the application creates: its producer outlives any one of them.
        properties.putAll(BookingTopology.errorHandling(deadLetters));
        this.application = StreamsApplication.builder(NAME, () -> topology, properties)
                .startOrder(START_ORDER)
                .metrics(registry)
                .build();
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
    public void start() {
        application.start();
    }

    /** Closes the client, committing the open transaction, and leaves the group so another replica takes over now. */
    @Override
    public void stop(Duration grace) {
        application.stop(grace);
    }

    @Override
    public ComponentHealth health() {
        return application.health();
    }

    /**
     * The lifecycle's global store of Workloads ({@link LifecycleTopology#PRESENCE_STORE}, as {@code WorkloadIndex}
     * writes it), read-only, for the dashboard; empty while no client can answer (starting, restoring, replaced).
     */
    public Optional<ReadOnlyKeyValueStore<String, byte[]>> workloadPresence() {
        return application.store(StoreQueryParameters.fromNameAndType(
                LifecycleTopology.PRESENCE_STORE, QueryableStoreTypes.<String, byte[]>keyValueStore()));
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
