package io.gpuaas.metrics.remotewrite;

/**
 * A remote-write request refused as a whole: nothing of it was published. The detail names what is wrong with the
 * request in the sender's terms (byte offsets, sizes, header values), never this service's internals, so it may go
 * into the problem answer as it is.
 */
public final class RemoteWriteRejection extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final Reason reason;

    RemoteWriteRejection(Reason reason, String detail) {
        super(detail, null, false, false);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }

    static RemoteWriteRejection malformed(String detail) {
        return new RemoteWriteRejection(Reason.MALFORMED_PROTOBUF, "the body is not a valid WriteRequest: " + detail);
    }

    /**
     * Why a request was refused, with the HTTP status it is answered with. Every status is a 4xx Prometheus does
     * not retry (it retries 5xx and 429 only): sending the same bytes again cannot succeed.
     */
    public enum Reason {
        /** {@code Content-Encoding} is not {@code snappy}, or {@code Content-Type} names another protobuf message. */
        UNSUPPORTED_MEDIA_TYPE(415),
        /** The body, or the length its snappy header declares, exceeds the configured bound. */
        BODY_TOO_LARGE(413),
        /** The body is not snappy block format. */
        NOT_SNAPPY(400),
        /** The decompressed body is not a protobuf {@code prometheus.WriteRequest}. */
        MALFORMED_PROTOBUF(400),
        /** A series without {@code __name__}, or a DCGM series without a GPU UUID or a node. */
        INVALID_SERIES(400);

        private final int status;

        Reason(int status) {
            this.status = status;
        }

        public int status() {
            return status;
        }

        /** The value of the {@code reason} label of the rejection counter. */
        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }
}
