package io.gpuaas.booking.stream;

/**
 * A command that decoded but cannot be decided (a required field is missing). Thrown before any state changes,
 * so the processing exception handler can dead-letter the record and let the partition move on.
 */
public final class InvalidCommandException extends RuntimeException {

    private final String key;

    public InvalidCommandException(String key, String message) {
        super("command for pool " + key + ": " + message);
        this.key = key;
    }

    public String key() {
        return key;
    }
}
