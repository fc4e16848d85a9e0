package io.gpuaas.kit.kafka;

import io.gpuaas.events.TopicSpec;
import io.gpuaas.events.Topics;
import io.micronaut.configuration.kafka.serde.SerdeRegistry;
import io.micronaut.core.type.Argument;
import jakarta.inject.Singleton;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The serdes of the topic registry by type, for micronaut-kafka: a producer asked for {@code (String, Notice)} gets
 * {@code Topics.NOTICES}' serializers, so its records carry the CloudEvents headers every gpuaas reader expects.
 * Ordered before micronaut-kafka's JSON registry, which would otherwise write any record as plain JSON without
 * headers. String and {@code byte[]} are Kafka's own serdes (keys, dead letters, pre-encoded samples). Every topic's
 * value type is a different type, so the answer never depends on which topic asked (checked when built).
 */
@Singleton
public final class TopicSerdes implements SerdeRegistry {

    private final Map<Class<?>, Serde<?>> byType;

    public TopicSerdes() {
        this(Topics.all());
    }

    TopicSerdes(List<TopicSpec<?, ?>> topics) {
        Map<Class<?>, Serde<?>> serdes = new HashMap<>();
        for (TopicSpec<?, ?> topic : topics) {
            Serde<?> known = serdes.putIfAbsent(topic.valueType(), topic.valueSerde());
            if (known != null) {
                throw new IllegalArgumentException(topic.baseName() + " shares its value type "
                        + topic.valueType().getName() + " with another"
                        + " topic: a producer asking by type could get the other topic's serde");
            }
        }
        serdes.putIfAbsent(String.class, Serdes.String());
        serdes.putIfAbsent(byte[].class, Serdes.ByteArray());
        this.byType = Map.copyOf(serdes);
    }

    /** The serde of {@code type}, or null when no topic has that key or value type (micronaut-kafka asks the next). */
    @Override
    @SuppressWarnings("unchecked")
    public <T> Serde<T> getSerde(Class<T> type) {
        return (Serde<T>) byType.get(type);
    }

    /** As {@link #getSerde} for a producer outside micronaut-kafka: a type no topic has is refused. */
    <T> Serializer<T> serializer(Argument<T> type) {
        Serde<T> serde = getSerde(type.getType());
        if (serde == null) {
            throw new IllegalArgumentException("no topic has the key or value type " + type.getTypeName());
        }
        return serde.serializer();
    }

    @Override
    public int getOrder() {
        return HIGHEST_PRECEDENCE;
    }
}
