package io.gpuaas.events;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Decodes raw records of one topic for a plain consumer loop, dead-lettering what cannot be read so the partition
 * keeps moving. Consume with {@code ByteArrayDeserializer} for key and value, then:
 *
 * <pre>{@code
 * EventReader<BookingEvent> reader = EventReader.of(Topics.BOOKING_EVENTS, deadLetters);
 * for (ConsumerRecord<byte[], byte[]> raw : consumer.poll(timeout)) {
 *     reader.read(raw).ifPresent(event -> handle(reader.key(raw), event));
 * }
 * consumer.commitSync();
 * }</pre>
 *
 * <p>A tombstone (null value) is judged by the topic ({@link EventSerdes#valueDeserializer(TopicSpec)}): on a
 * compacted topic it is a legitimate delete, and {@link #read} returns empty without dead-lettering (check
 * {@code raw.value() == null} when deletes matter to you); on any other topic it is dead-lettered with reason
 * {@value EventSerdes#TOMBSTONE} like any record that cannot be trusted.
 *
 * @param <T> the value type of the topic
 */
public final class EventReader<T> {

    private final Deserializer<T> deserializer;
    private final DeadLetterPublisher deadLetters;

    /**
     * @param deserializer the topic's value deserializer with its tombstone rule, e.g.
     *                     {@code EventSerdes.valueDeserializer(Topics.GPU_SAMPLES)}; a null it returns reads as empty
     * @param deadLetters  where unreadable records go
     */
    public EventReader(Deserializer<T> deserializer, DeadLetterPublisher deadLetters) {
        this.deserializer = deserializer;
        this.deadLetters = deadLetters;
    }

    /** A reader for the values of {@code topic}, tombstones judged by whether it is compacted. */
    public static <T> EventReader<T> of(TopicSpec<?, T> topic, DeadLetterPublisher deadLetters) {
        return new EventReader<>(EventSerdes.valueDeserializer(topic), deadLetters);
    }

    /**
     * The decoded value, or empty when the record was a delete on a compacted topic or was dead-lettered. Any
     * failure of the deserializer (not only {@link EventDecodingException}) dead-letters the record.
     *
     * @throws org.apache.kafka.common.KafkaException when the dead-letter topic cannot be written; do not commit
     */
    public Optional<T> read(ConsumerRecord<byte[], byte[]> raw) {
        try {
            return Optional.ofNullable(deserializer.deserialize(raw.topic(), raw.headers(), raw.value()));
        } catch (RuntimeException e) {
            deadLetters.publish(raw, e);
            return Optional.empty();
        }
    }

    /**
     * The record key as the aggregate id (UTF-8), or null when the record has none. Never throws: malformed UTF-8
     * is replaced rather than rejected, because the key only routes and the value carries the facts.
     */
    public String key(ConsumerRecord<byte[], byte[]> raw) {
        return raw.key() == null ? null : new String(raw.key(), StandardCharsets.UTF_8);
    }
}
