package io.gpuaas.booking.stream;

import io.gpuaas.events.Json;
import java.io.IOException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Plain JSON for state store values. Stores and their changelogs are private to this service, so they carry no
 * CloudEvents headers (Kafka Streams serializes store values without headers).
 */
public final class JsonSerde<T> implements Serde<T> {

    private final Class<T> type;

    public JsonSerde(Class<T> type) {
        this.type = type;
    }

    @Override
    public Serializer<T> serializer() {
        return (topic, data) -> {
            try {
                return data == null ? null : Json.mapper().writeValueAsBytes(data);
            } catch (IOException e) {
                throw new SerializationException("cannot write " + type.getSimpleName() + " for " + topic, e);
            }
        };
    }

    @Override
    public Deserializer<T> deserializer() {
        return (topic, data) -> {
            try {
                return data == null ? null : Json.mapper().readValue(data, type);
            } catch (IOException e) {
                throw new SerializationException("cannot read " + type.getSimpleName() + " from " + topic, e);
            }
        };
    }
}
