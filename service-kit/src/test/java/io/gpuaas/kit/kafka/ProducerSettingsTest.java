package io.gpuaas.kit.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuaas.events.TopicSpec;
import io.gpuaas.events.Topics;
import io.gpuaas.events.notice.Notice;
import io.micronaut.core.type.Argument;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

class ProducerSettingsTest {

    private static final Map<String, Object> CONNECTION =
            Map.of("bootstrap.servers", "kafka:9092", "security.protocol", "SASL_SSL", "client.id", "booking-commands");

    @Test
    void shouldKeepTheKitsDefaultsWhenNeitherCodeNorOperatorTunesAProducer() {
        assertThat(ProducerSettings.layer(CONNECTION, Map.of(), Map.of()))
                .containsAllEntriesOf(CONNECTION)
                .containsEntry("acks", "all")
                .containsEntry("enable.idempotence", true)
                .containsEntry("max.in.flight.requests.per.connection", 5)
                .containsEntry("linger.ms", 5)
                .containsEntry("compression.type", "snappy");
    }

    @Test
    void shouldLetTheCodeOverTheDefaultsAndTheOperatorOverBothWhenTheyTuneTheSameKey() {
        Map<String, Object> config = ProducerSettings.layer(
                CONNECTION,
                Map.of("linger.ms", 0, "batch.size", 131_072),
                Map.of("batch.size", "65536", "compression.type", "zstd"));

        assertThat(config)
                .containsEntry("linger.ms", 0)
                .containsEntry("batch.size", "65536")
                .containsEntry("compression.type", "zstd")
                .containsEntry("acks", "all");
    }

    @Test
    void shouldKeepAcksAllWhenAClientPropertyForEveryClientSaysOtherwise() {
        Map<String, Object> connection = Map.of("bootstrap.servers", "kafka:9092", "acks", "1");

        assertThat(ProducerSettings.layer(connection, Map.of(), Map.of())).containsEntry("acks", "all");
    }

    @Test
    void shouldRefuseOtherSettingsForAClientIdWhenItAlreadyHasSome() {
        ProducerTuning tuning = new ProducerTuning();
        tuning.register("booking-commands", Map.of("linger.ms", 0));
        tuning.register("booking-commands", Map.of("linger.ms", 0));

        assertThatThrownBy(() -> tuning.register("booking-commands", Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("booking-commands");
        assertThat(tuning.settings("booking-commands")).containsEntry("linger.ms", 0);
        assertThat(tuning.settings("someone-else")).isEmpty();
    }

    @Test
    void shouldServeEveryTopicsValueSerdeByItsTypeWhenAProducerAsksByType() {
        TopicSerdes serdes = new TopicSerdes();

        for (TopicSpec<?, ?> topic : Topics.all()) {
            assertThat(serdes.getSerde(topic.valueType())).as(topic.baseName()).isSameAs(topic.valueSerde());
        }
        assertThat(serdes.serializer(Argument.of(String.class))).isInstanceOf(StringSerializer.class);
        assertThat(serdes.serializer(Argument.of(byte[].class))).isInstanceOf(ByteArraySerializer.class);
        assertThat(serdes.getSerde(Notice.class)).isSameAs(Topics.NOTICES.valueSerde());
    }

    @Test
    void shouldRefuseATypeNoTopicHasWhenAProducerIsMadeOutsideAContext() {
        assertThat(new TopicSerdes().getSerde(Integer.class)).isNull();
        assertThatThrownBy(() -> new TopicSerdes().serializer(Argument.of(Integer.class)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldRefuseTwoTopicsOfOneValueTypeWhenTheRegistryIsBuilt() {
        List<TopicSpec<?, ?>> topics = new ArrayList<>(Topics.all());
        topics.add(new TopicSpec<>(
                "notices-again",
                String.class,
                Serdes.String(),
                Notice.class,
                Topics.NOTICES.valueSerde(),
                1,
                false,
                java.time.Duration.ofDays(1)));

        assertThatThrownBy(() -> new TopicSerdes(topics))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("notices-again");
    }
}
