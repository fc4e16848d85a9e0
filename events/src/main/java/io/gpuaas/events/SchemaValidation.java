package io.gpuaas.events;

/**
 * How much a {@link CloudEventDeserializer} checks a body against the JSON Schema of its {@code ce_type} before
 * handing out a record. A violation throws {@link EventDecodingException} with reason {@code SCHEMA_VIOLATION}.
 */
public enum SchemaValidation {

    /** Validate every record against its full schema (types, enums, nested required fields). The default. */
    FULL,

    /**
     * Decode directly and run the schema only when a required top-level property came back missing: catches
     * incomplete records at near-zero cost for high-volume topics, but not wrong nested shapes that Jackson
     * tolerates. Type mismatches still fail decoding as {@code BAD_JSON}.
     */
    REQUIRED_FIELDS,

    /** No schema check; only what Jackson itself rejects fails. */
    OFF
}
