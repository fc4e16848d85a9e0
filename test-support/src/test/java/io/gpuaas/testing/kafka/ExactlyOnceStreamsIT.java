package io.gpuaas.testing.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The shared broker must carry what booking-service runs: an exactly_once_v2 Streams app. */
@ExtendWith(KafkaBrokerExtension.class)
class ExactlyOnceStreamsIT {

    @Test
    void shouldDeliverProcessedRecordWhenStreamsRunsExactlyOnceV2(KafkaBroker broker, @TempDir Path state)
            throws Exception {
        String prefix = broker.uniquePrefix();
        broker.createTopics(2, prefix + "in", prefix + "out");
        StreamsBuilder topology = new StreamsBuilder();
        topology.stream(prefix + "in", Consumed.with(Serdes.String(), Serdes.String()))
                .mapValues(v -> v.toUpperCase(java.util.Locale.ROOT))
                .to(prefix + "out", Produced.with(Serdes.String(), Serdes.String()));

        try (KafkaStreams streams = new KafkaStreams(topology.build(), streamsConfig(broker, state))) {
            streams.start();
            EmbeddedKafkaIT.send(broker, prefix + "in", "h200", "book 2 gpus", false);

            assertThat(EmbeddedKafkaIT.readAll(broker, prefix + "out", 1, "read_committed"))
                    .extracting(ConsumerRecord::value)
                    .containsExactly("BOOK 2 GPUS");
        }
    }

    private static Properties streamsConfig(KafkaBroker broker, Path state) {
        Properties props = new Properties();
        props.putAll(broker.clientProperties());
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, broker.uniqueGroupId("eos-it"));
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.STATE_DIR_CONFIG, state.toString());
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "100");
        props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, "1");
        return props;
    }
}
