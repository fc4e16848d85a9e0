package io.gpuaas.events.booking;

import java.time.Instant;

/**
 * A request to change bookings on one pool; the values of {@code gpuaas.booking-commands}, keyed by pool id
 * so that a single writer decides per pool.
 */
public sealed interface BookingCommand
        permits BookingCommand.CreateBooking, BookingCommand.CancelBooking, BookingCommand.ChangeBooking {

    /** Unique id of this request; the decision echoes it so the HTTP edge can match its answer. */
    String requestId();

    /** Client-chosen idempotency key, or null; the same key and body always get the same decision. */
    String idempotencyKey();

    /** The authenticated caller. */
    Caller caller();

    /** The pool the command acts on (the record key). */
    String pool();

    /** The booking the command creates or acts on. */
    String bookingId();

    /** When the HTTP edge accepted the request. */
    Instant requestedAt();

    /**
     * What the HTTP edge bound the idempotency key to: a digest of the method, the target path and the canonical
     * body, or null (commands written before the edge sent it). When present, "same request" means the same
     * fingerprint, so the edge and the decider agree on a replay.
     */
    String requestFingerprint();

    /**
     * Book {@code quantity} units of {@code pool} for {@code [start, end)} in {@code namespace}.
     *
     * @param requestId      unique id of the request; the decision echoes it
     * @param idempotencyKey client-chosen idempotency key, or null
     * @param caller         the authenticated caller
     * @param pool           the pool (the record key)
     * @param bookingId      the booking created or acted on
     * @param namespace      tenant namespace the capacity is for
     * @param quantity       units of the pool's resource
     * @param start          requested inclusive start
     * @param end            requested exclusive end
     * @param purpose        free text, may be null
     * @param requestedAt    when the HTTP edge accepted the request
     * @param requestFingerprint digest of the HTTP request the idempotency key is bound to, or null
     */
    record CreateBooking(
            String requestId,
            String idempotencyKey,
            Caller caller,
            String pool,
            String bookingId,
            String namespace,
            int quantity,
            Instant start,
            Instant end,
            String purpose,
            Instant requestedAt,
            String requestFingerprint)
            implements BookingCommand {

        /** A command without a request fingerprint (tools and tests that bypass the HTTP edge). */
        public CreateBooking(
                String requestId,
                String idempotencyKey,
                Caller caller,
                String pool,
                String bookingId,
                String namespace,
                int quantity,
                Instant start,
                Instant end,
                String purpose,
                Instant requestedAt) {
            this(
                    requestId,
                    idempotencyKey,
                    caller,
                    pool,
                    bookingId,
                    namespace,
                    quantity,
                    start,
                    end,
                    purpose,
                    requestedAt,
                    null);
        }
    }

    /**
     * Cancel a booking.
     *
     * @param requestId      unique id of the request; the decision echoes it
     * @param idempotencyKey client-chosen idempotency key, or null
     * @param caller         the authenticated caller
     * @param pool           the pool (the record key)
     * @param bookingId      the booking created or acted on
     * @param requestedAt    when the HTTP edge accepted the request
     * @param requestFingerprint digest of the HTTP request the idempotency key is bound to, or null
     */
    record CancelBooking(
            String requestId,
            String idempotencyKey,
            Caller caller,
            String pool,
            String bookingId,
            Instant requestedAt,
            String requestFingerprint)
            implements BookingCommand {

        /** A command without a request fingerprint (tools and tests that bypass the HTTP edge). */
        public CancelBooking(
                String requestId,
                String idempotencyKey,
                Caller caller,
                String pool,
                String bookingId,
                Instant requestedAt) {
            this(requestId, idempotencyKey, caller, pool, bookingId, requestedAt, null);
        }
    }

    /**
     * Move the window of a booking (extend or shorten); checked like a new booking.
     *
     * @param requestId      unique id of the request; the decision echoes it
     * @param idempotencyKey client-chosen idempotency key, or null
     * @param caller         the authenticated caller
     * @param pool           the pool (the record key)
     * @param bookingId      the booking created or acted on
     * @param start          new inclusive start
     * @param end            new exclusive end
     * @param requestedAt    when the HTTP edge accepted the request
     * @param requestFingerprint digest of the HTTP request the idempotency key is bound to, or null
     */
    record ChangeBooking(
            String requestId,
            String idempotencyKey,
            Caller caller,
            String pool,
            String bookingId,
            Instant start,
            Instant end,
            Instant requestedAt,
            String requestFingerprint)
            implements BookingCommand {

        /** A command without a request fingerprint (tools and tests that bypass the HTTP edge). */
        public ChangeBooking(
                String requestId,
                String idempotencyKey,
                Caller caller,
                String pool,
                String bookingId,
                Instant start,
                Instant end,
                Instant requestedAt) {
            this(requestId, idempotencyKey, caller, pool, bookingId, start, end, requestedAt, null);
        }
    }
}
