package io.gpuaas.booking.stream;

import io.gpuaas.booking.config.BookingSettings;
import io.gpuaas.booking.config.EngineTuning;
import io.gpuaas.booking.metrics.BookingMetrics;
import io.gpuaas.booking.model.BookingDecider;
import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.kit.kafka.KafkaClients;
import io.micronaut.context.annotation.Context;
import jakarta.annotation.PreDestroy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the decision topology for the lifetime of the application: started eagerly with the context, closed
 * (committing the open transaction) on shutdown. The gpuaas topics exist before it starts: the operator creates them
 * (Strimzi KafkaTopics, the local stack's super user); this service's Kafka user may not.
 */
@Context
public class DecisionEngine {

    private static final Logger LOG = LoggerFactory.getLogger(DecisionEngine.class);

    private final KafkaClients clients;
    private final BookingSettings settings;
    private final EngineTuning tuning;
    private final Topology topology;
    private final DeadLetterPublisher deadLetters;
    private volatile KafkaStreams streams;

    public DecisionEngine(KafkaClients clients, BookingSettings settings, EngineTuning tuning, BookingDecider decider,
                          BookingMetrics metrics, DeadLetterPublisher deadLetters) {
        this.clients = clients;
        this.settings = settings;
        this.tuning = tuning;
        this.topology = BookingTopology.build(clients.settings().topicPrefix(), decider, settings.tick(),
                settings.retention(), metrics::decided);
        this.deadLetters = deadLetters;
        start();
    }

    /** Starts a fresh Kafka Streams instance; its state comes back from the local stores or the changelogs. */
    public synchronized void start() {
        streams = new KafkaStreams(topology, properties());
        streams.setUncaughtExceptionHandler(e -> {
            LOG.error("decision processor failed; replacing the stream thread (state restores from the changelog)", e);
            return org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
        });
        streams.start();
        LOG.info("decision engine started: {}", topology.describe());
    }

    /** Stops the instance; {@code timeout} zero simulates a crash (no clean commit). */
    @PreDestroy
    public synchronized void stop() {
        stop(Duration.ofSeconds(10));
    }

    public synchronized void stop(Duration timeout) {
        if (streams != null) {
            streams.close(timeout);
            streams = null;
        }
    }

    public KafkaStreams.State state() {
        KafkaStreams current = streams;
        return current == null ? KafkaStreams.State.NOT_RUNNING : current.state();
    }

    private Properties properties() {
        Properties props = new Properties();
        props.putAll(clients.streamsConfig(settings.applicationId()));
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir());
        props.putAll(tuning.streamsProperties());
        props.putAll(BookingTopology.errorHandling(deadLetters));
        return props;
    }

    private String stateDir() {
        if (settings.stateDir() != null) {
            return settings.stateDir();
        }
        try {
            return Files.createTempDirectory("booking-state").toString();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a state directory", e);
        }
    }

    /** For health details. */
    public Map<String, Object> details() {
        return Map.of("state", state().name(), "applicationId", settings.applicationId());
    }
}
