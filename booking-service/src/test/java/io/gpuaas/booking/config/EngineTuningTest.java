package io.gpuaas.booking.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

class EngineTuningTest {

    private static StreamsConfig streamsConfig(EngineTuning tuning) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "tuning-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1");
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.putAll(tuning.streamsProperties());
        return new StreamsConfig(props);
    }

    @Test
    void shouldReachTheTransactionalProducerWhenKafkaStreamsBuildsItsClients() {
        Map<String, Object> producer = streamsConfig(EngineTuning.defaults()).getProducerConfigs("client");

        assertThat(producer)
                .containsEntry(ProducerConfig.LINGER_MS_CONFIG, "100")
                .containsEntry(ProducerConfig.RETRY_BACKOFF_MS_CONFIG, "2");
    }

    @Test
    void shouldCommitEveryFiveMillisecondsAndPollNoLongerWhenDefaultsAreUsed() {
        StreamsConfig config = streamsConfig(EngineTuning.defaults());

        assertThat(config.getLong(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG)).isEqualTo(5L);
        assertThat(config.getLong(StreamsConfig.POLL_MS_CONFIG)).isLessThanOrEqualTo(5L);
    }

    @Test
    void shouldHoldRecordsUntilTheCommitFlushesWhenDefaultsAreUsed() {
        EngineTuning tuning = EngineTuning.defaults();

        // Sent earlier, records would only meet the previous transaction's markers: the commit sends them at once.
        assertThat(tuning.producerLinger()).isGreaterThan(tuning.commitInterval());
    }

    @Test
    void shouldHandADeadInstancesPoolsToAnotherReplicaWithinTenSecondsWhenDefaultsAreUsed() {
        Map<String, Object> consumer =
                streamsConfig(EngineTuning.defaults()).getMainConsumerConfigs("group", "client", 0);

        assertThat(consumer).containsEntry(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "10000");
    }
}
