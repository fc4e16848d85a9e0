package io.gpuaas.events;

import java.util.Map;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/** Kafka serdes for the gpuaas contract: CloudEvents 1.0 binary mode (headers) with a JSON body. */
public final class EventSerdes {

    /** The {@link EventDecodingException#reason()} of a null value on a topic that is not compacted. */
    public static final String TOMBSTONE = "TOMBSTONE";

    private EventSerdes() {}

    /**
     * A serde for {@code baseType} (a sealed event interface or a record): the serializer writes the
     * {@code ce_*} headers from the concrete record class; the deserializer picks the record class from
     * {@code ce_type}, validates the body against the type's JSON Schema ({@link SchemaValidation#FULL}) and throws
     * {@link EventDecodingException} on anything it cannot read.
     */
    public static <T> Serde<T> of(Class<T> baseType) {
        return of(baseType, SchemaValidation.FULL);
    }

    /** As {@link #of(Class)} with an explicit schema validation mode for the deserializer. */
    public static <T> Serde<T> of(Class<T> baseType, SchemaValidation validation) {
        return Serdes.serdeFrom(new CloudEventSerializer<>(), new CloudEventDeserializer<>(baseType, validation));
    }

    /**
     * The value deserializer every consumer of {@code topic} uses: the topic's own, plus the tombstone rule. On a
     * compacted topic a null value is a delete and reads as null; on any other topic nothing is deleted by it, so it
     * is a record nobody should have written and throws {@link EventDecodingException} with reason
     * {@value #TOMBSTONE}, which dead-letters it ({@link EventReader}, {@link DeadLetterDeserializationHandler}).
     */
    public static <T> Deserializer<T> valueDeserializer(TopicSpec<?, T> topic) {
        return valueDeserializer(topic, topic.valueSerde().deserializer());
    }

    /** As {@link #valueDeserializer(TopicSpec)} around another decoder of the topic's values (e.g. a faster one). */
    public static <T> Deserializer<T> valueDeserializer(TopicSpec<?, ?> topic, Deserializer<T> decoder) {
        return topic.compacted() ? decoder : new NoTombstones<>(decoder);
    }

    /** The topic's value serde with {@link #valueDeserializer(TopicSpec)}: what Kafka Streams sources consume with. */
    public static <T> Serde<T> valueSerde(TopicSpec<?, T> topic) {
        return Serdes.serdeFrom(topic.valueSerde().serializer(), valueDeserializer(topic));
    }

    /** The error a null value on the non-compacted {@code topic} is dead-lettered with. */
    public static EventDecodingException tombstone(String topic) {
        return new EventDecodingException(
                TOMBSTONE,
                "null value (tombstone) on " + topic
                        + ", which is not compacted: a null deletes nothing there, so the record is not trusted",
                null);
    }

    /** A decoder of a non-compacted topic: a null value is an error, everything else is the decoder's. */
    private record NoTombstones<T>(Deserializer<T> decoder) implements Deserializer<T> {

        @Override
        public void configure(Map<String, ?> configs, boolean isKey) {
            decoder.configure(configs, isKey);
        }

        @Override
        public T deserialize(String topic, byte[] data) {
            if (data == null) {
                throw tombstone(topic);
            }
            return decoder.deserialize(topic, data);
        }

        @Override
        public T deserialize(String topic, Headers headers, byte[] data) {
            if (data == null) {
                throw tombstone(topic);
            }
            return decoder.deserialize(topic, headers, data);
        }

        @Override
        public void close() {
            decoder.close();
        }
    }
}
