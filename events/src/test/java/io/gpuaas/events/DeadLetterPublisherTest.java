package io.gpuaas.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

class DeadLetterPublisherTest {

    static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");

    final PrometheusRegistry registry = new PrometheusRegistry();
    final MockProducer<byte[], byte[]> producer = producer();
    final DeadLetterPublisher publisher = new DeadLetterPublisher(
            producer, "gpuaas.dead-letter", "quota-projector", registry, Clock.fixed(NOW, ZoneOffset.UTC));

    @Test
    void shouldKeepOriginalBytesAndHeadersAndAddTheReasonWhenARecordIsDeadLettered() {
        ConsumerRecord<byte[], byte[]> original =
                record("gpuaas.booking-events", "bk-1", "{not json", "io.gpuaas.booking.confirmed.v1");

        publisher.publish(original, new EventDecodingException("BAD_JSON", "cannot read", null));

        ProducerRecord<byte[], byte[]> letter = producer.history().get(0);
        assertThat(letter.topic()).isEqualTo("gpuaas.dead-letter");
        assertThat(letter.key()).isEqualTo(original.key());
        assertThat(letter.value()).isEqualTo(original.value());
        assertThat(header(letter, CloudEvents.TYPE)).isEqualTo("io.gpuaas.booking.confirmed.v1");
        assertThat(header(letter, DeadLetterPublisher.REASON)).isEqualTo("BAD_JSON");
        assertThat(header(letter, DeadLetterPublisher.ERROR)).isEqualTo("BAD_JSON: cannot read");
        assertThat(header(letter, DeadLetterPublisher.TOPIC)).isEqualTo("gpuaas.booking-events");
        assertThat(header(letter, DeadLetterPublisher.PARTITION)).isEqualTo("4");
        assertThat(header(letter, DeadLetterPublisher.OFFSET)).isEqualTo("1234");
        assertThat(header(letter, DeadLetterPublisher.GROUP)).isEqualTo("quota-projector");
        assertThat(header(letter, DeadLetterPublisher.TIME)).isEqualTo("2026-11-22T12:00:00Z");
        assertThat(header(letter, DeadLetterPublisher.ORIGINAL_TIMESTAMP)).isEqualTo("1700000000000");
    }

    @Test
    void shouldCountByTopicAndReasonWhenRecordsAreDeadLettered() {
        publisher.publish(
                record("gpuaas.gpu-samples", "k", "x", null), new EventDecodingException("MISSING_TYPE", "m", null));
        publisher.publish(
                record("gpuaas.gpu-samples", "k", "x", null), new EventDecodingException("MISSING_TYPE", "m", null));
        publisher.publish(record("gpuaas.gpu-samples", "k", "x", null), new IllegalStateException("boom"));

        assertThat(count("gpuaas.gpu-samples", "MISSING_TYPE")).isEqualTo(2.0);
        assertThat(count("gpuaas.gpu-samples", "IllegalStateException")).isEqualTo(1.0);
    }

    @Test
    void shouldShareOneCounterWhenTwoPublishersUseTheSameRegistry() {
        DeadLetterPublisher second = new DeadLetterPublisher(producer(), "gpuaas.dead-letter", "other", registry);
        publisher.publish(record("a", "k", "x", null), new RuntimeException("one"));
        second.publish(record("a", "k", "x", null), new RuntimeException("two"));
        assertThat(count("a", "RuntimeException")).isEqualTo(2.0);
    }

    @Test
    void shouldKeepANullKeyAndTruncateALongMessageWhenTheRecordHasNoKey() {
        ConsumerRecord<byte[], byte[]> noKey =
                new ConsumerRecord<>("t", 0, 1, null, "v".getBytes(StandardCharsets.UTF_8));
        publisher.publish(noKey, new RuntimeException("x".repeat(5000)));
        ProducerRecord<byte[], byte[]> letter = producer.history().get(0);
        assertThat(letter.key()).isNull();
        assertThat(header(letter, DeadLetterPublisher.ERROR)).hasSize(DeadLetterPublisher.MAX_ERROR_CHARS);
    }

    @Test
    void shouldThrowAndNotCountWhenTheDeadLetterTopicCannotBeWritten() {
        producer.sendException = new TimeoutException("broker gone");
        assertThatThrownBy(() -> publisher.publish(record("t", "k", "v", null), new RuntimeException("x")))
                .isInstanceOf(KafkaException.class);
        assertThat(count("t", "RuntimeException")).isZero();
    }

    static MockProducer<byte[], byte[]> producer() {
        return new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    }

    static ConsumerRecord<byte[], byte[]> record(String topic, String key, String value, String ceType) {
        RecordHeaders headers = new RecordHeaders();
        if (ceType != null) {
            headers.add(CloudEvents.TYPE, ceType.getBytes(StandardCharsets.UTF_8));
        }
        return new ConsumerRecord<>(
                topic,
                4,
                1234,
                1_700_000_000_000L,
                TimestampType.CREATE_TIME,
                -1,
                -1,
                key == null ? null : key.getBytes(StandardCharsets.UTF_8),
                value == null ? null : value.getBytes(StandardCharsets.UTF_8),
                headers,
                Optional.empty());
    }

    static String header(ProducerRecord<byte[], byte[]> record, String name) {
        return CloudEvents.header(record.headers(), name);
    }

    double count(String topic, String reason) {
        return count(registry, topic, reason);
    }

    static double count(PrometheusRegistry registry, String topic, String reason) {
        for (MetricSnapshot snapshot : registry.scrape()) {
            if (snapshot instanceof CounterSnapshot counter) {
                for (CounterSnapshot.CounterDataPointSnapshot point : counter.getDataPoints()) {
                    if (point.getLabels().equals(Labels.of("reason", reason, "topic", topic))) {
                        return point.getValue();
                    }
                }
            }
        }
        return 0;
    }
}
