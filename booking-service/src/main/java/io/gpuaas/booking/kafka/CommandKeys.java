package io.gpuaas.booking.kafka;

import io.gpuaas.events.TopicSpec;
import io.gpuaas.events.Topics;
import io.gpuaas.events.booking.BookingCommand;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serdes;

/**
 * {@code booking-commands} as the booking feed reads it, only to learn idempotency keys: a command that does not
 * decode, or a null one, reads as null instead of being dead-lettered. The decision engine reads the same records
 * and dead-letters them once; every instance's feed doing it too would write and count each of them N+1 times.
 */
final class CommandKeys {

    /**
     * The registry's topic with a lenient decoder. It is marked compacted only so the replica hands a null value to
     * the handler (as a delete) rather than dead-letter it as a tombstone; the spec is never used to create a topic.
     */
    static final TopicSpec<String, BookingCommand> TOPIC = new TopicSpec<>(
            Topics.BOOKING_COMMANDS.baseName(),
            Topics.BOOKING_COMMANDS.keyType(),
            Topics.BOOKING_COMMANDS.keySerde(),
            Topics.BOOKING_COMMANDS.valueType(),
            Serdes.serdeFrom(
                    Topics.BOOKING_COMMANDS.valueSerde().serializer(),
                    new Lenient(Topics.BOOKING_COMMANDS.valueSerde().deserializer())),
            Topics.BOOKING_COMMANDS.partitions(),
            true,
            null);

    private CommandKeys() {}

    /** The topic's own decoder; anything it refuses is null. */
    private record Lenient(Deserializer<BookingCommand> strict) implements Deserializer<BookingCommand> {

        @Override
        public BookingCommand deserialize(String topic, byte[] data) {
            return deserialize(topic, null, data);
        }

        @Override
        public BookingCommand deserialize(String topic, Headers headers, byte[] data) {
            if (data == null) {
                return null;
            }
            try {
                return strict.deserialize(topic, headers, data);
            } catch (RuntimeException e) {
                return null;
            }
        }
    }
}
