package io.gpuaas.events;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/** Kafka serdes for the gpuaas contract: CloudEvents 1.0 binary mode (headers) with a JSON body. */
public final class EventSerdes {

    private EventSerdes() {
    }

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
}
