package io.gpuaas.events;

import org.apache.kafka.common.errors.SerializationException;

/** A record could not be read as a gpuaas event; {@link #reason()} is a short machine-readable code. */
public class EventDecodingException extends SerializationException {

    private static final long serialVersionUID = 1L;

    private final String reason;

    /**
     * @param reason  short machine-readable code, see {@link #reason()}
     * @param message what was wrong, for the dead letter's {@code gpuaas_dlq_error}
     * @param cause   the underlying parser error, or null
     */
    public EventDecodingException(String reason, String message, Throwable cause) {
        super(reason + ": " + message, cause);
        this.reason = reason;
    }

    /**
     * One of {@code MISSING_TYPE}, {@code UNKNOWN_TYPE}, {@code WRONG_TYPE}, {@code BAD_JSON},
     * {@code SCHEMA_VIOLATION}, {@code TOMBSTONE} (a null value on a topic that is not compacted).
     */
    public String reason() {
        return reason;
    }
}
