package io.gpuaas.events.gpu;

import static io.gpuaas.events.gpu.GpuScrapeCases.TOPIC;
import static io.gpuaas.events.gpu.GpuScrapeCases.TYPE;
import static io.gpuaas.events.gpu.GpuScrapeCases.typed;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.CloudEvents;
import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.EventReader;
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
 * A record the samples topic's consumers cannot trust goes to the dead-letter topic as the generic reader would send
 * it: same reason, same error text, original bytes kept. One bad device is enough to reject the whole scrape: the
 * reader cannot tell which of its values to trust.
 */
class GpuScrapeCodecDeadLetterTest {

    private static final String OK = "\"time\":\"2026-11-21T17:30:00Z\",\"node\":\"n\"";
    private static final String GOOD_DEVICE = "{\"uuid\":\"u\",\"utilization\":0.5}";

    static Stream<Arguments> untrusted() {
        return Stream.of(
                Arguments.of(
                        "utilization past its maximum",
                        typed(TYPE),
                        devices("\"utilization\":1.5"),
                        "SCHEMA_VIOLATION"),
                Arguments.of("negative power", typed(TYPE), devices("\"powerWatts\":-5"), "SCHEMA_VIOLATION"),
                Arguments.of(
                        "unknown utilization source",
                        typed(TYPE),
                        devices("\"utilizationSource\":\"X\""),
                        "SCHEMA_VIOLATION"),
                Arguments.of("empty device uuid", typed(TYPE), devices("\"uuid\":\"\""), "SCHEMA_VIOLATION"),
                Arguments.of(
                        "empty node",
                        typed(TYPE),
                        "{\"time\":\"2026-11-21T17:30:00Z\",\"node\":\"\",\"devices\":[]}",
                        "SCHEMA_VIOLATION"),
                Arguments.of("no devices property", typed(TYPE), "{" + OK + "}", "SCHEMA_VIOLATION"),
                Arguments.of(
                        "a device that is null", typed(TYPE), "{" + OK + ",\"devices\":[null]}", "SCHEMA_VIOLATION"),
                Arguments.of(
                        "a string where a number belongs",
                        typed(TYPE),
                        devices("\"gpuIndex\":\"one\""),
                        "SCHEMA_VIOLATION"),
                Arguments.of("malformed JSON", typed(TYPE), "{" + OK + ",\"devices\":[", "BAD_JSON"),
                Arguments.of("not JSON", typed(TYPE), "\u0000\u0001garbage", "BAD_JSON"),
                Arguments.of("tombstone", typed(TYPE), null, "TOMBSTONE"),
                Arguments.of("no ce_type", new RecordHeaders(), devices("\"uuid\":\"v\""), "MISSING_TYPE"),
                Arguments.of(
                        "another topic's type",
                        typed("io.gpuaas.reclaim.reclaimed.v1"),
                        devices("\"uuid\":\"v\""),
                        "WRONG_TYPE"));
    }

    /** A scrape of a good device and a second one with {@code fields}. */
    private static String devices(String fields) {
        return "{" + OK + ",\"devices\":[" + GOOD_DEVICE + ",{\"uuid\":\"v\"," + fields + "}]}";
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
                "n".getBytes(StandardCharsets.UTF_8),
                value,
                headers,
                Optional.empty());
        MockProducer<byte[], byte[]> viaCodec = producer();
        MockProducer<byte[], byte[]> viaGeneric = producer();

        Optional<GpuScrapeEvent> read = new EventReader<>(GpuScrapeCases.topicReader(), publisher(viaCodec)).read(raw);
        new EventReader<>(GpuScrapeCases.genericReader(), publisher(viaGeneric)).read(raw);

        assertThat(read).isEmpty();
        ProducerRecord<byte[], byte[]> letter = viaCodec.history().getFirst();
        assertThat(viaCodec.history()).hasSize(1);
        assertThat(letter.value()).isEqualTo(value);
        assertThat(letter.key()).isEqualTo(raw.key());
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
