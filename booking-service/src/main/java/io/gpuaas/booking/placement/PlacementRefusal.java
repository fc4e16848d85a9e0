package io.gpuaas.booking.placement;

/** Why a fleet refused to place, extend, shorten or release a booking. */
public enum PlacementRefusal {
    /** Fewer units than asked fit during part of the window ({@code blockedFrom..blockedUntil} names the first). */
    NO_ROOM,
    /**
     * Every instant of the window has room for the units, but no GPU and start stays free for the whole window: only
     * moving a booking that has not started yet would make it fit.
     */
    FRAGMENTED,
    /** The pool's GPU model offers no such MIG profile. */
    UNKNOWN_PROFILE,
    /** The booking id is already placed. */
    BOOKING_EXISTS,
    /** No placed booking has that id. */
    NOT_FOUND,
    /** A new end that does not shorten (or extend) the booking, or would leave it empty. */
    INVALID_END
}
