package io.gpuaas.events;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.List;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Reads a gpuaas event: the record class comes from {@code ce_type}, the body is checked against the type's JSON
 * Schema (see {@link SchemaValidation}); anything unreadable throws {@link EventDecodingException} naming the reason
 * ({@code MISSING_TYPE}, {@code UNKNOWN_TYPE}, {@code WRONG_TYPE}, {@code BAD_JSON}, {@code SCHEMA_VIOLATION}), so
 * the caller can dead-letter it. A null body (tombstone) reads as null: whether that is a delete or a record to
 * dead-letter depends on the topic, see {@link EventSerdes#valueDeserializer(TopicSpec)}. Unknown JSON properties
 * are ignored.
 *
 * @param <T> the sealed event interface or record class of the topic
 */
public final class CloudEventDeserializer<T> implements Deserializer<T> {

    private final Class<T> baseType;
    private final SchemaValidation validation;

    /** A deserializer with {@link SchemaValidation#FULL}. */
    public CloudEventDeserializer(Class<T> baseType) {
        this(baseType, SchemaValidation.FULL);
    }

    /** A deserializer with the given schema validation. */
    public CloudEventDeserializer(Class<T> baseType, SchemaValidation validation) {
        this.baseType = baseType;
        this.validation = validation;
    }

    /** The sealed event interface or record class this deserializer reads. */
    public Class<T> baseType() {
        return baseType;
    }

    /** How this deserializer checks bodies against their schema. */
    public SchemaValidation validation() {
        return validation;
    }

    @Override
    public T deserialize(String topic, byte[] data) {
        throw new EventDecodingException("MISSING_TYPE", "gpuaas events need their ce_type header", null);
    }

    @Override
    public T deserialize(String topic, Headers headers, byte[] data) {
        if (data == null) {
            return null;
        }
        String ceType = CloudEvents.header(headers, CloudEvents.TYPE);
        if (ceType == null) {
            throw new EventDecodingException("MISSING_TYPE", "no ce_type header", null);
        }
        Class<?> recordClass = EventTypes.classOf(ceType)
                .orElseThrow(() -> new EventDecodingException("UNKNOWN_TYPE", "unknown ce_type " + ceType, null));
        if (!baseType.isAssignableFrom(recordClass)) {
            throw new EventDecodingException(
                    "WRONG_TYPE", ceType + " is not a " + baseType.getSimpleName() + " (topic " + topic + ")", null);
        }
        return baseType.cast(
                switch (validation) {
                    case FULL -> readValidated(ceType, recordClass, data);
                    case OFF -> read(ceType, recordClass, data);
                });
    }

    private static Object readValidated(String ceType, Class<?> recordClass, byte[] data) {
        JsonNode tree = tree(ceType, data);
        throwOnViolations(ceType, EventSchemas.violations(ceType, tree));
        try {
            return Json.mapper().treeToValue(tree, recordClass);
        } catch (IOException e) {
            throw badJson(ceType, e);
        }
    }

    private static JsonNode tree(String ceType, byte[] data) {
        JsonNode tree;
        try {
            tree = Json.mapper().readTree(data);
        } catch (IOException e) {
            throw badJson(ceType, e);
        }
        if (tree == null || tree.isMissingNode()) {
            throw new EventDecodingException("BAD_JSON", "empty body for " + ceType, null);
        }
        return tree;
    }

    private static Object read(String ceType, Class<?> recordClass, byte[] data) {
        try {
            return Json.mapper().readValue(data, recordClass);
        } catch (IOException e) {
            throw badJson(ceType, e);
        }
    }

    private static void throwOnViolations(String ceType, List<String> violations) {
        if (!violations.isEmpty()) {
            throw new EventDecodingException(
                    "SCHEMA_VIOLATION", ceType + " violates its schema: " + String.join("; ", violations), null);
        }
    }

    private static EventDecodingException badJson(String ceType, IOException e) {
        return new EventDecodingException("BAD_JSON", "cannot read " + ceType + ": " + firstLine(e.getMessage()), e);
    }

    private static String firstLine(String s) {
        return s == null ? "" : s.lines().findFirst().orElse("");
    }
}
