package io.gpuaas.events;

/**
 * How much a {@link CloudEventDeserializer} checks a body against the JSON Schema of its {@code ce_type} before
 * handing out a record. A violation throws {@link EventDecodingException} with reason {@code SCHEMA_VIOLATION}.
 */
public enum SchemaValidation {

    /** Validate every record against its full schema (types, enums, nested required fields). The default. */
    FULL,

    /**
     * Decode directly, check the constraints the schema declares on top-level properties on the decoded record
     * (required, {@code minimum}/{@code maximum}, {@code enum}, {@code minLength}/{@code maxLength}), and run the
     * full schema only when one is broken, to name everything wrong. Catches incomplete and out-of-range records at
     * near-zero cost for high-volume flat types, but not wrong nested shapes that Jackson tolerates. Type mismatches
     * still fail decoding as {@code BAD_JSON}.
     */
    REQUIRED_FIELDS,

    /** No schema check; only what Jackson itself rejects fails. */
    OFF
}
