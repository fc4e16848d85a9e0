package io.gpuaas.events.booking;

import java.time.Instant;

/**
 * A request to change bookings on one pool; the values of {@code gpuaas.booking-commands}, keyed by pool id
 * so that a single writer decides per pool.
 */
public sealed interface BookingCommand permits BookingCommand.CreateBooking, BookingCommand.CancelBooking,
        BookingCommand.ChangeBooking {

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
     */
    record CreateBooking(String requestId, String idempotencyKey, Caller caller, String pool, String bookingId,
                         String namespace, int quantity, Instant start, Instant end, String purpose,
                         Instant requestedAt) implements BookingCommand {
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
     */
    record CancelBooking(String requestId, String idempotencyKey, Caller caller, String pool, String bookingId,
                         Instant requestedAt) implements BookingCommand {
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
     */
    record ChangeBooking(String requestId, String idempotencyKey, Caller caller, String pool, String bookingId,
                         Instant start, Instant end, Instant requestedAt) implements BookingCommand {
    }
}
