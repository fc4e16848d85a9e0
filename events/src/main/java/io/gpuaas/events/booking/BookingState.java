package io.gpuaas.events.booking;

/**
 * Lifecycle of a booking: CONFIRMED, then ACTIVE at its start, then COMPLETED at its end; or CANCELLED; or RELEASED
 * when an ACTIVE booking is given back before its end (ended early by its owner, or released as a no-show).
 */
public enum BookingState {
    /** Accepted; holds capacity from now on, quota not yet applied. */
    CONFIRMED,
    /** Inside its window; the tenant's ClusterQueue holds its units. */
    ACTIVE,
    /** Its window ended; capacity released. */
    COMPLETED,
    /** Cancelled before or during its window; capacity released. */
    CANCELLED,
    /**
     * Given back while ACTIVE, before its end ({@link BookingEvent.BookingReleased} says why and from when); holds no
     * capacity, and its window stays as booked so the released time can be computed.
     */
    RELEASED;

    /** Whether a booking in this state still holds capacity on its pool's timeline. */
    public boolean holdsCapacity() {
        return this == CONFIRMED || this == ACTIVE;
    }
}
