package io.gpuaas.booking.model;

/**
 * Why a command was refused; the {@code reason} of a BookingRejected event. The HTTP edge maps each to a status.
 */
public enum Rejection {
    /** Not enough free units somewhere in the window. */
    CAPACITY(409, "quantity"),
    /** The tenant would hold more than its cap on the pool. */
    POLICY_TENANT_CAP(409, "quantity"),
    POLICY_MAX_DURATION(422, "end"),
    /** Over the pool's approval threshold, with a window that has begun: nothing is left to wait for approval in. */
    APPROVAL_REQUIRED(422, "start"),
    POLICY_MAX_ADVANCE(422, "end"),
    POLICY_ALIGNMENT(422, "start"),
    INVALID_QUANTITY(400, "quantity"),
    /** A profile the pool does not book: not one of a flexible pool's bookable profiles, or not a static pool's own. */
    INVALID_PROFILE(422, "profile"),
    INVALID_WINDOW(400, "end"),
    /** A waitlist's latest start before the request's start, or beyond the policy's max advance. */
    INVALID_WAITLIST(400, "waitlist.latestStart"),
    START_IN_PAST(400, "start"),
    UNKNOWN_POOL(404, "pool"),
    /** No such booking, or it belongs to another tenant (never reveal which). */
    NOT_FOUND(404, "id"),
    /**
     * The booking is cancelled, completed or released, the change would move an active booking's start, or a release
     * or an extension from now names a booking that is not active.
     */
    INVALID_STATE(409, "state"),
    /** A release as NO_SHOW from anyone but booking-service's own lifecycle (a system caller). */
    NOT_PERMITTED(403, "reason"),
    /** The booking id is already taken. */
    BOOKING_EXISTS(409, "id"),
    /** The idempotency key was used before with a different body. */
    IDEMPOTENCY_MISMATCH(422, "Idempotency-Key"),
    /** A series' rule that is malformed, unbounded, too long, has overlapping occurrences or an unknown zone. */
    INVALID_RECURRENCE(422, "recurrence"),
    /** Under all-or-none, an occurrence that fitted but was not booked because another one was refused. */
    SERIES_ALL_OR_NONE(409, "mode"),
    /**
     * The request would take the tenant's booked amount for a month over its budget (the budget stage, with the
     * figures), or needs more than the stage set aside for it (the pool's decider: a book-now decided later).
     */
    BUDGET_EXCEEDED(409, "quantity");

    private final int httpStatus;
    private final String field;

    Rejection(int httpStatus, String field) {
        this.httpStatus = httpStatus;
        this.field = field;
    }

    public int httpStatus() {
        return httpStatus;
    }

    /** The request field (or header) the rule is about. */
    public String field() {
        return field;
    }
}
