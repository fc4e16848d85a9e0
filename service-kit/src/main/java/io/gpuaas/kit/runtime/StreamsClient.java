package io.gpuaas.kit.runtime;

import java.time.Duration;
import java.util.Properties;
import java.util.function.Supplier;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;

/**
 * What {@link StreamsApplication} needs of one Kafka Streams client: a seam so the supervision is unit-tested with a
 * scripted client, and run against a broker with {@link KafkaStreams}.
 */
interface StreamsClient {

    /** Non-blocking: Streams starts its own threads. */
    void start();

    KafkaStreams.State state();

    /** Closes within {@code timeout}; {@code leaveGroup} hands the tasks to another replica at once. */
    void close(Duration timeout, boolean leaveGroup);

    /** A local state store; throws {@code InvalidStateStoreException} while none can answer. */
    <T> T store(StoreQueryParameters<T> parameters);

    /** Makes a new, not yet started client that reports its state changes and dying threads. */
    @FunctionalInterface
    interface Factory {
        StreamsClient create(KafkaStreams.StateListener states, StreamsUncaughtExceptionHandler failures);
    }

    /** Real clients: a topology from {@code topology} (asked once per client) and a copy of {@code properties}. */
    static Factory kafka(Supplier<Topology> topology, Properties properties) {
        Properties copy = new Properties();
        copy.putAll(properties);
        return (states, failures) -> {
            KafkaStreams streams = new KafkaStreams(topology.get(), copy);
            streams.setStateListener(states);
            streams.setUncaughtExceptionHandler(failures);
            return new Kafka(streams);
        };
    }

    /** A {@link KafkaStreams} as a {@link StreamsClient}. */
    record Kafka(KafkaStreams streams) implements StreamsClient {

        @Override
        public void start() {
            streams.start();
        }

        @Override
        public KafkaStreams.State state() {
            return streams.state();
        }

        @Override
        public void close(Duration timeout, boolean leaveGroup) {
            streams.close(new KafkaStreams.CloseOptions().timeout(timeout).leaveGroup(leaveGroup));
        }

        @Override
        public <T> T store(StoreQueryParameters<T> parameters) {
            return streams.store(parameters);
        }
    }
}
