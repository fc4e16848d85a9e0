package io.gpuaas.events;

/**
 * How much a {@link CloudEventDeserializer} checks a body against the JSON Schema of its {@code ce_type} before
 * handing out a record. A violation throws {@link EventDecodingException} with reason {@code SCHEMA_VIOLATION}.
 */
public enum SchemaValidation {

    /** Validate every record against its full schema (types, enums, nested required fields). The default. */
    FULL,

    /** No schema check; only what Jackson itself rejects fails. */
    OFF
}
