package io.gpuaas.testing.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(KafkaBrokerExtension.class)
class KafkaBrokerExtensionIT {

    static KafkaBroker staticBroker;
    KafkaBroker instanceBroker;

    @Test
    void shouldInjectTheSameBrokerWhenAskedAsFieldOrParameter(KafkaBroker parameter) {
        assertThat(staticBroker).isNotNull();
        assertThat(instanceBroker)
                .isSameAs(staticBroker)
                .isSameAs(parameter)
                .isSameAs(KafkaBrokerExtension.sharedBroker());
    }

    @Test
    void shouldDeliverCommittedRecordWhenProducedToPrefixedTopic(KafkaBroker broker) throws Exception {
        String topic = broker.uniquePrefix() + "booking-events";
        broker.createTopics(3, topic);

        EmbeddedKafkaIT.send(broker, topic, "b-1", "{\"bookingId\":\"b-1\"}", false);

        assertThat(EmbeddedKafkaIT.readAll(broker, topic, 1, "read_committed"))
                .extracting(r -> r.key() + "=" + r.value())
                .containsExactly("b-1={\"bookingId\":\"b-1\"}");
        try (Admin admin = broker.admin()) {
            assertThat(admin.describeTopics(java.util.List.of(topic))
                            .allTopicNames()
                            .get(10, TimeUnit.SECONDS)
                            .get(topic)
                            .partitions())
                    .hasSize(3);
        }
    }

    @Test
    void shouldHandOutDistinctPrefixesWhenCalledRepeatedly(KafkaBroker broker) {
        String first = broker.uniquePrefix();
        String second = broker.uniquePrefix();

        assertThat(first).matches("t\\d+\\.gpuaas\\.").isNotEqualTo(second);
        assertThat(broker.uniqueGroupId("projector"))
                .startsWith("projector-")
                .isNotEqualTo(broker.uniqueGroupId("projector"));
    }
}
