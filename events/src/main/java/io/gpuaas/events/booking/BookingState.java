package io.gpuaas.events.booking;

/**
 * Lifecycle of a booking: CONFIRMED, then ACTIVE at its start, then COMPLETED at its end; or CANCELLED; or RELEASED
 * when an ACTIVE booking is given back before its end (ended early by its owner, or released as a no-show). A booking
 * over its pool's approval threshold starts PENDING_APPROVAL instead of CONFIRMED, and becomes CONFIRMED (approved)
 * or DENIED (denied, or its approval hold ran out).
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
    RELEASED,
    /**
     * Over its pool's approval threshold: waits for an admin ({@link BookingEvent.BookingPendingApproval}). Keeps its
     * units on the pool's timeline so nobody else can take them meanwhile ({@link #takesCapacity()}), but is not
     * confirmed: it never becomes ACTIVE and gets no quota ({@link #holdsCapacity()} is false).
     */
    PENDING_APPROVAL,
    /** Not approved: denied by an admin, or its approval hold ran out ({@link BookingEvent.BookingApprovalDecided}). */
    DENIED;

    /**
     * Whether a booking in this state holds confirmed capacity: CONFIRMED or ACTIVE. What quota, booked units and
     * usage count.
     */
    public boolean holdsCapacity() {
        return this == CONFIRMED || this == ACTIVE;
    }

    /**
     * Whether a booking in this state keeps its units from anyone else on its pool's timeline: the states that
     * {@link #holdsCapacity() hold capacity} and a booking {@link #PENDING_APPROVAL awaiting approval}. What the
     * decider and a calendar of free capacity count.
     */
    public boolean takesCapacity() {
        return holdsCapacity() || this == PENDING_APPROVAL;
    }
}
