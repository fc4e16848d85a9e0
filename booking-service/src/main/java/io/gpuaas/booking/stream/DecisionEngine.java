package io.gpuaas.booking.stream;

import io.gpuaas.booking.StartOrder;
import io.gpuaas.booking.budget.BudgetDecider;
import io.gpuaas.booking.config.BookingSettings;
import io.gpuaas.booking.config.EngineTuning;
import io.gpuaas.booking.config.LifecycleSettings;
import io.gpuaas.booking.metrics.BookingMetrics;
import io.gpuaas.booking.model.BookingDecider;
import io.gpuaas.booking.model.WorkloadCells;
import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.kit.runtime.StreamsApplication;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
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
 * The decision engine: the Kafka Streams application of the decisions and the lifecycle ({@link BookingTopology},
 * {@link LifecycleTopology}), supervised by the kit's {@link StreamsApplication}: a client that reaches ERROR, or whose
 * stream or global thread dies, is closed and replaced after a backoff (250 ms doubling to 10 s, jitter; its tasks
 * restore from the local store or the changelog), RECOVERING meanwhile, so the instance is unready. Ready once a
 * client reached RUNNING (a rebalance later does not take it out of traffic: with two replicas every rollout
 * rebalances both). Its stop closes the client, committing the open transaction, and leaves the group so another
 * replica takes over at once. The gpuaas topics exist before it starts: the operator creates them (Strimzi
 * KafkaTopics, the local stack's super user); this service's Kafka user may not.
 */
public final class DecisionEngine {

    public static final String NAME = "decision-engine";

    private static final Logger LOG = LoggerFactory.getLogger(DecisionEngine.class);

    private DecisionEngine() {}

    /**
     * The engine as a service component ({@link StartOrder#DECISIONS}: after the booking feed, so the engine stops
     * first and its last commit still reaches the feed's readers).
     *
     * @param deadLetters one publisher for every client the application creates: its producer outlives any one of them
     */
    public static StreamsApplication application(
            KafkaClients clients,
            BookingSettings settings,
            EngineTuning tuning,
            LifecycleSettings lifecycle,
            BookingDecider decider,
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
        // Every create, change and series passes its tenant's budget stage on its way to its pool's writer.
        BudgetTopology.addTo(topology, prefix, new BudgetDecider(pools, decider.policy(), settings.retention()));
        LOG.info("booking lifecycle: {}", lifecycle);
        LOG.info("decision engine {}: {}", settings.applicationId(), topology.describe());
        Properties properties = new Properties();
        properties.putAll(clients.streamsConfig(settings.applicationId()));
        properties.put(StreamsConfig.STATE_DIR_CONFIG, stateDir(settings));
        properties.putAll(tuning.streamsProperties());
        properties.putAll(BookingTopology.errorHandling(deadLetters));
        return StreamsApplication.builder(NAME, () -> topology, properties)
                .startOrder(StartOrder.DECISIONS)
                .metrics(registry)
                .build();
    }

    /**
     * The lifecycle's global store of Workloads ({@link LifecycleTopology#PRESENCE_STORE}, as {@code WorkloadIndex}
     * writes it), read-only, for the dashboard; empty while no client can answer (starting, restoring, replaced).
     */
    public static Optional<ReadOnlyKeyValueStore<String, byte[]>> workloadPresence(StreamsApplication engine) {
        return engine.store(StoreQueryParameters.fromNameAndType(
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
