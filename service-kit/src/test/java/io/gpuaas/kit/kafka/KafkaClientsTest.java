package io.gpuaas.kit.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.kit.config.KafkaSettings;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KafkaClientsTest {

    private static Map<String, Object> streams(Map<String, String> properties) {
        return new KafkaClients(new KafkaSettings("localhost:9092", "gpuaas.", properties)).streamsConfig("app");
    }

    @Test
    void shouldGiveStreamConsumersATenSecondSessionWhenNoneIsConfigured() {
        assertThat(streams(Map.of()))
                .containsEntry("consumer.session.timeout.ms", 10_000)
                .containsEntry("consumer.heartbeat.interval.ms", 3_000);
    }

    @Test
    void shouldLeaveAConfiguredSessionTimeoutAloneWhenOneIsSet() {
        Map<String, Object> config = streams(Map.of("session.timeout.ms", "20000"));

        // A consumer.-prefixed value would win over the configured one inside Kafka Streams.
        assertThat(config)
                .containsEntry("session.timeout.ms", "20000")
                .doesNotContainKeys("consumer.session.timeout.ms", "consumer.heartbeat.interval.ms");
    }
}
