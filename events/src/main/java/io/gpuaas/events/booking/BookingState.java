package io.gpuaas.events.booking;

/** Lifecycle of a booking: CONFIRMED, then ACTIVE at its start, then COMPLETED at its end, or CANCELLED. */
public enum BookingState {
    /** Accepted; holds capacity from now on, quota not yet applied. */
    CONFIRMED,
    /** Inside its window; the tenant's ClusterQueue holds its units. */
    ACTIVE,
    /** Its window ended; capacity released. */
    COMPLETED,
    /** Cancelled before or during its window; capacity released. */
    CANCELLED;

    /** Whether a booking in this state still holds capacity on its pool's timeline. */
    public boolean holdsCapacity() {
        return this == CONFIRMED || this == ACTIVE;
    }
}
