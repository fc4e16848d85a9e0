package io.gpuaas.metrics.ledger;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingEvent.BookingReleased;
import io.gpuaas.events.booking.BookingState;
import java.time.Instant;

/**
 * What the ledger knows of one booking: its latest snapshot from {@code gpuaas.booking-events} and, once released,
 * why and from when.
 *
 * @param booking       the latest state (highest version) seen
 * @param releaseReason why it was released, null unless a BookingReleased was seen
 * @param releasedAt    from when its units were free again, null unless released
 */
public record BookingFacts(Booking booking, BookingReleased.Reason releaseReason, Instant releasedAt) {

    /**
     * Until when the booking held its units: the release for a released booking, the cancellation (never past the
     * end) for a cancelled one, its end otherwise. Not after {@code start} means it never held.
     */
    public Instant heldEnd() {
        return switch (booking.state()) {
            case RELEASED -> releasedAt != null ? releasedAt : booking.updatedAt();
            case CANCELLED -> min(booking.updatedAt(), booking.end());
            case CONFIRMED, ACTIVE, COMPLETED -> booking.end();
            // Never confirmed: held nothing (awaiting approval, or denied or expired before its start).
            case PENDING_APPROVAL, DENIED -> booking.start();
        };
    }

    /**
     * The end of the booked window: as booked, but a cancelled booking's stops at its cancellation and one never
     * approved (awaiting approval, denied or expired) books nothing (its start).
     */
    public Instant bookedEnd() {
        return switch (booking.state()) {
            case CANCELLED, PENDING_APPROVAL, DENIED -> heldEnd();
            case CONFIRMED, ACTIVE, COMPLETED, RELEASED -> booking.end();
        };
    }

    /** The released window {@code [releasedAt, end)}, or null when the booking was not released early. */
    public Instant releasedFrom() {
        if (booking.state() != BookingState.RELEASED) {
            return null;
        }
        Instant from = heldEnd();
        return from.isBefore(booking.end()) ? max(from, booking.start()) : null;
    }

    private static Instant min(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }

    private static Instant max(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }
}
