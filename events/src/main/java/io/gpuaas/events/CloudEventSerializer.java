package io.gpuaas.events;

import com.fasterxml.jackson.core.JsonProcessingException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Writes a gpuaas event as a JSON body and its CloudEvents attributes as headers ({@code ce_specversion},
 * {@code ce_id}, {@code ce_source}, {@code ce_type}, {@code ce_time}, {@code content-type}; see
 * {@link CloudEventHeaders}), replacing those the record already carried (e.g. the ones a Streams app copied from
 * its input record). {@code ce_id} is a random UUID, or for an {@link IdentifiedEvent} the name-based UUID of its own
 * id.
 *
 * @param <T> the event type; the concrete class must be registered in {@link EventTypes}
 */
public final class CloudEventSerializer<T> implements Serializer<T> {

    @Override
    public byte[] serialize(String topic, T data) {
        return data == null ? null : toJson(data);
    }

    @Override
    public byte[] serialize(String topic, Headers headers, T data) {
        if (data == null) {
            return null;
        }
        Header type = CloudEventHeaders.type(data.getClass());
        if (data instanceof IdentifiedEvent identified) {
            CloudEventHeaders.process().replace(headers, type, identified.eventId());
        } else {
            CloudEventHeaders.process().replace(headers, type);
        }
        return toJson(data);
    }

    private static byte[] toJson(Object data) {
        try {
            return Json.mapper().writeValueAsBytes(data);
        } catch (JsonProcessingException e) {
            throw new SerializationException("cannot write " + data.getClass().getSimpleName() + " as JSON", e);
        }
    }
}
