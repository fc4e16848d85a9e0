package io.gpuaas.booking;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.testing.kafka.KafkaBroker;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/** What booking-service's tests expect of a dead letter: the headers every gpuaas service writes. */
public final class DeadLetterTopic {

    private DeadLetterTopic() {}

    /** The key dead letters are found by: where the original record was read. */
    public static String where(String topic, int partition, long offset) {
        return topic + "/" + partition + "/" + offset;
    }

    /**
     * Reads {@code deadLetterTopic} from the beginning until a letter for each of {@code wanted} (see {@link #where})
     * arrived; the last letter per origin wins (a crash may write one twice).
     */
    public static Map<String, ConsumerRecord<byte[], byte[]>> awaitLetters(
            KafkaBroker broker, String deadLetterTopic, Collection<String> wanted) {
        Map<String, Object> config = broker.clientProperties();
        config.put("auto.offset.reset", "earliest");
        config.put("group.id", broker.uniqueGroupId("dead-letter-reader"));
        Map<String, ConsumerRecord<byte[], byte[]>> letters = new HashMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(deadLetterTopic));
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                consumer.poll(Duration.ofMillis(200))
                        .forEach(r -> letters.put(
                                where(
                                        header(r.headers(), DeadLetterPublisher.TOPIC),
                                        Integer.parseInt(header(r.headers(), DeadLetterPublisher.PARTITION)),
                                        Long.parseLong(header(r.headers(), DeadLetterPublisher.OFFSET))),
                                r));
                return letters.keySet().containsAll(wanted);
            });
        }
        return letters;
    }

    /** Every {@code gpuaas_dlq_*} header, as events' DeadLetterPublisher writes it for booking-service. */
    public static void assertHeaders(
            Headers letter, String reason, String topic, int partition, long offset, long originalTimestamp) {
        assertThat(header(letter, DeadLetterPublisher.REASON)).isEqualTo(reason);
        assertThat(header(letter, DeadLetterPublisher.ERROR)).isNotBlank();
        assertThat(header(letter, DeadLetterPublisher.TOPIC)).isEqualTo(topic);
        assertThat(header(letter, DeadLetterPublisher.PARTITION)).isEqualTo(Integer.toString(partition));
        assertThat(header(letter, DeadLetterPublisher.OFFSET)).isEqualTo(Long.toString(offset));
        assertThat(header(letter, DeadLetterPublisher.GROUP)).isEqualTo("booking-service");
        assertThat(Instant.parse(header(letter, DeadLetterPublisher.TIME)))
                .isBetween(Instant.now().minus(Duration.ofMinutes(10)), Instant.now());
        assertThat(header(letter, DeadLetterPublisher.ORIGINAL_TIMESTAMP)).isEqualTo(Long.toString(originalTimestamp));
    }

    /** The last header of that name as UTF-8, or null. */
    public static String header(Headers headers, String name) {
        Header header = headers.lastHeader(name);
        return header == null ? null : new String(header.value(), UTF_8);
    }
}
