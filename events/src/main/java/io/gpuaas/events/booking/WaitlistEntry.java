package io.gpuaas.events.booking;

import java.time.Duration;
import java.time.Instant;

/**
 * A create request that did not fit and asked to wait: "book {@code quantity} units for {@code length} when they fit,
 * starting between {@code earliestStart} and {@code latestStart}". The values of {@code gpuaas.waitlist} (latest
 * state per entry, compacted, keyed by {@link #id()}) and inside the waitlist events on {@code gpuaas.booking-events}.
 * While WAITING, the decision engine books it (under the same id) in arrival order ({@link #createdAt()}, then id) as
 * soon as capacity on its pool frees and it fits; at {@code latestStart} it expires.
 *
 * @param id            the entry's id, which is also the id of the booking it becomes
 * @param requestId     the create request that put it on the waitlist
 * @param tenant        the tenant it is for
 * @param namespace     the namespace the booking would be for
 * @param pool          the pool
 * @param profile       on a flexible pool, the MIG profile of each unit, or null for whole GPUs / a static pool
 * @param quantity      units asked for
 * @param earliestStart the earliest start accepted (the request's start, or the instant it was decided for a book-now)
 * @param latestStart   the latest start accepted; the entry expires at this instant
 * @param length        the window's length (the refused window's end minus its start)
 * @param purpose       free text, or null
 * @param createdBy     token subject that asked
 * @param state         WAITING, then BOOKED, CANCELLED or EXPIRED
 * @param createdAt     when it was put on the waitlist: its place in the arrival order
 * @param updatedAt     when this state was reached
 */
public record WaitlistEntry(
        String id,
        String requestId,
        String tenant,
        String namespace,
        String pool,
        String profile,
        int quantity,
        Instant earliestStart,
        Instant latestStart,
        Duration length,
        String purpose,
        String createdBy,
        State state,
        Instant createdAt,
        Instant updatedAt) {

    /** Where an entry is: waiting, or how it left the waitlist. */
    public enum State {
        /** On the waitlist; booked when it fits. */
        WAITING,
        /** Booked: a booking with the entry's id was confirmed. */
        BOOKED,
        /** Cancelled by its tenant (or an admin) while waiting. */
        CANCELLED,
        /** Its latest start passed without room. */
        EXPIRED;

        /** Whether the entry is still waiting. */
        public boolean waiting() {
            return this == WAITING;
        }
    }

    /** The same entry in {@code next} state from {@code at}. */
    public WaitlistEntry withState(State next, Instant at) {
        return new WaitlistEntry(
                id,
                requestId,
                tenant,
                namespace,
                pool,
                profile,
                quantity,
                earliestStart,
                latestStart,
                length,
                purpose,
                createdBy,
                next,
                createdAt,
                at);
    }
}
