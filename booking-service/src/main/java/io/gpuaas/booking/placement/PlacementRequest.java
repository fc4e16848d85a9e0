package io.gpuaas.booking.placement;

import java.time.Instant;

/**
 * A booking to place on a flexible pool: {@code quantity} units of one kind over {@code [start, end)}.
 *
 * @param bookingId the booking's id
 * @param kind      a MIG profile of the pool's GPU model, or whole GPUs
 * @param quantity  how many units, at least 1
 * @param start     inclusive start of the window
 * @param end       exclusive end of the window, after {@code start}
 */
public record PlacementRequest(String bookingId, UnitKind kind, int quantity, Instant start, Instant end) {

    /** Rejects a blank id, a missing kind or instant, a quantity under 1 or an empty window. */
    public PlacementRequest {
        if (bookingId == null || bookingId.isBlank()) {
            throw new IllegalArgumentException("a placement request needs a booking id");
        }
        if (kind == null || start == null || end == null) {
            throw new IllegalArgumentException("booking " + bookingId + ": kind, start and end are required");
        }
        if (quantity < 1) {
            throw new IllegalArgumentException("booking " + bookingId + ": quantity must be >= 1, was " + quantity);
        }
        if (!start.isBefore(end)) {
            throw new IllegalArgumentException("booking " + bookingId + ": start " + start + " is not before " + end);
        }
    }

    /** The same request ending at {@code newEnd}. */
    PlacementRequest withEnd(Instant newEnd) {
        return new PlacementRequest(bookingId, kind, quantity, start, newEnd);
    }
}
