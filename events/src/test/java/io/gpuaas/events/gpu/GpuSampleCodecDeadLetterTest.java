package io.gpuaas.events.gpu;

import static io.gpuaas.events.gpu.GpuSampleCases.TOPIC;
import static io.gpuaas.events.gpu.GpuSampleCases.TYPE;
import static io.gpuaas.events.gpu.GpuSampleCases.typed;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.CloudEventDeserializer;
import io.gpuaas.events.CloudEvents;
import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.EventReader;
import io.gpuaas.events.EventSerdes;
import io.gpuaas.events.SchemaValidation;
import io.gpuaas.events.Topics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A record the samples topic's consumers cannot trust goes to the dead-letter topic exactly as it did before the
 * codec, when the topic was read with the generic reader: same reason, same error text, original bytes kept.
 */
class GpuSampleCodecDeadLetterTest {

    private static final String OK = "\"time\":\"2026-11-21T17:30:00Z\",\"hostname\":\"h\",\"uuid\":\"u\"";

    static Stream<Arguments> untrusted() {
        return Stream.of(
                Arguments.of(
                        "utilization past its maximum",
                        typed(TYPE),
                        "{" + OK + ",\"utilization\":1.5}",
                        "SCHEMA_VIOLATION"),
                Arguments.of("negative power", typed(TYPE), "{" + OK + ",\"powerWatts\":-5}", "SCHEMA_VIOLATION"),
                Arguments.of(
                        "unknown utilization source",
                        typed(TYPE),
                        "{" + OK + ",\"utilizationSource\":\"X\"}",
                        "SCHEMA_VIOLATION"),
                Arguments.of(
                        "empty hostname",
                        typed(TYPE),
                        "{\"time\":\"2026-11-21T17:30:00Z\",\"hostname\":\"\"," + "\"uuid\":\"u\"}",
                        "SCHEMA_VIOLATION"),
                Arguments.of(
                        "no uuid",
                        typed(TYPE),
                        "{\"time\":\"2026-11-21T17:30:00Z\",\"hostname\":\"h\"}",
                        "SCHEMA_VIOLATION"),
                Arguments.of("malformed JSON", typed(TYPE), "{" + OK + ",\"pod\":", "BAD_JSON"),
                Arguments.of("not JSON", typed(TYPE), "\u0000\u0001garbage", "BAD_JSON"),
                Arguments.of(
                        "a string where a number belongs",
                        typed(TYPE),
                        "{" + OK + ",\"gpuIndex\":\"one\"}",
                        "BAD_JSON"),
                Arguments.of("tombstone", typed(TYPE), null, "TOMBSTONE"),
                Arguments.of("no ce_type", new RecordHeaders(), "{" + OK + "}", "MISSING_TYPE"),
                Arguments.of(
                        "another topic's type", typed("io.gpuaas.reclaim.reclaimed.v1"), "{" + OK + "}", "WRONG_TYPE"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("untrusted")
    void shouldDeadLetterLikeTheGenericReaderWhenARecordCannotBeTrusted(
            String what, RecordHeaders headers, String body, String reason) {
        byte[] value = body == null ? null : body.getBytes(StandardCharsets.UTF_8);
        ConsumerRecord<byte[], byte[]> raw = new ConsumerRecord<>(
                TOPIC,
                3,
                42,
                0L,
                TimestampType.CREATE_TIME,
                -1,
                -1,
                "h/u".getBytes(StandardCharsets.UTF_8),
                value,
                headers,
                Optional.empty());
        MockProducer<byte[], byte[]> viaCodec = producer();
        MockProducer<byte[], byte[]> viaGeneric = producer();

        Optional<GpuSampleEvent> read =
                EventReader.of(Topics.GPU_SAMPLES, publisher(viaCodec)).read(raw);
        new EventReader<>(
                        EventSerdes.valueDeserializer(
                                Topics.GPU_SAMPLES,
                                new CloudEventDeserializer<>(GpuSampleEvent.class, SchemaValidation.REQUIRED_FIELDS)),
                        publisher(viaGeneric))
                .read(raw);

        assertThat(read).isEmpty();
        ProducerRecord<byte[], byte[]> letter = viaCodec.history().getFirst();
        assertThat(viaCodec.history()).hasSize(1);
        assertThat(letter.value()).isEqualTo(value);
        assertThat(CloudEvents.header(letter.headers(), DeadLetterPublisher.REASON))
                .isEqualTo(reason);
        assertThat(reasonAndError(letter))
                .isEqualTo(reasonAndError(viaGeneric.history().getFirst()));
    }

    private static Map<String, String> reasonAndError(ProducerRecord<byte[], byte[]> letter) {
        return Map.of(
                "reason",
                CloudEvents.header(letter.headers(), DeadLetterPublisher.REASON),
                "error",
                CloudEvents.header(letter.headers(), DeadLetterPublisher.ERROR));
    }

    private static MockProducer<byte[], byte[]> producer() {
        return new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    }

    private static DeadLetterPublisher publisher(MockProducer<byte[], byte[]> producer) {
        return new DeadLetterPublisher(producer, "gpuaas.dead-letter", "idle-reclaimer", new PrometheusRegistry());
    }
}
