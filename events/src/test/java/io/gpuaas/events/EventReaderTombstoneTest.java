package io.gpuaas.events;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** A null value is a delete on a compacted topic and an untrusted record everywhere else, for every topic. */
class EventReaderTombstoneTest {

    final MockProducer<byte[], byte[]> producer = DeadLetterPublisherTest.producer();
    final PrometheusRegistry registry = new PrometheusRegistry();
    final DeadLetterPublisher deadLetters =
            new DeadLetterPublisher(producer, "gpuaas.dead-letter", "some-consumer", registry);

    static Stream<Named<TopicSpec<?, ?>>> compacted() {
        return Topics.all().stream().filter(TopicSpec::compacted).map(t -> Named.of(t.baseName(), t));
    }

    static Stream<Named<TopicSpec<?, ?>>> notCompacted() {
        return Topics.all().stream().filter(t -> !t.compacted()).map(t -> Named.of(t.baseName(), t));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("compacted")
    void shouldReadADeleteWithoutDeadLetteringWhenTheTopicIsCompacted(TopicSpec<?, ?> topic) {
        Optional<?> read = EventReader.of(topic, deadLetters).read(tombstone(topic));

        assertThat(read).isEmpty();
        assertThat(producer.history()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("notCompacted")
    void shouldDeadLetterWithReasonTombstoneWhenTheTopicIsNotCompacted(TopicSpec<?, ?> topic) {
        Optional<?> read = EventReader.of(topic, deadLetters).read(tombstone(topic));

        assertThat(read).isEmpty();
        assertThat(producer.history()).singleElement().satisfies(letter -> {
            assertThat(letter.key()).asString(StandardCharsets.UTF_8).isEqualTo("the-key");
            assertThat(letter.value()).isNull();
            assertThat(DeadLetterPublisherTest.header(letter, DeadLetterPublisher.REASON))
                    .isEqualTo("TOMBSTONE");
            assertThat(DeadLetterPublisherTest.header(letter, DeadLetterPublisher.ERROR))
                    .contains(topic.name("gpuaas."), "not compacted");
        });
        assertThat(DeadLetterPublisherTest.count(registry, topic.name("gpuaas."), "TOMBSTONE"))
                .isEqualTo(1.0);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("notCompacted")
    void shouldFailTheStreamsSourceWhenANonCompactedTopicCarriesANull(TopicSpec<?, ?> topic) {
        // Kafka Streams hands the failure to DeadLetterDeserializationHandler, which dead-letters the record.
        EventSerdesTest.assertReason(
                () -> EventSerdes.valueSerde(topic)
                        .deserializer()
                        .deserialize(topic.name("gpuaas."), new RecordHeaders(), (byte[]) null),
                "TOMBSTONE");
    }

    private static ConsumerRecord<byte[], byte[]> tombstone(TopicSpec<?, ?> topic) {
        return new ConsumerRecord<>(
                topic.name("gpuaas."),
                2,
                40,
                0L,
                TimestampType.CREATE_TIME,
                -1,
                -1,
                "the-key".getBytes(StandardCharsets.UTF_8),
                null,
                new RecordHeaders(),
                Optional.empty());
    }
}
