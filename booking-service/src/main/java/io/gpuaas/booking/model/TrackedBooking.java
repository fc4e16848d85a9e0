package io.gpuaas.booking.model;

import io.gpuaas.events.booking.Booking;
import java.time.Instant;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the lifecycle keeps about one ACTIVE booking (store {@code booking-lifecycle}, keyed by booking id). The
 * {@code done} set changes in the same transaction as the notice or command it records, which is what makes each of
 * them happen once.
 *
 * @param booking      the booking's latest state
 * @param endArmedAt   since when it has been active with its current end: an ending-soon lead due at or before this
 *                     instant had already passed and is never sent
 * @param watchedFrom  when the lifecycle first saw it active; the no-show grace counts from this or the start,
 *                     whichever is later, so a booking first seen long after its start (the first rollout of the
 *                     lifecycle, a lost store) still gets its whole grace
 * @param workloadSeen a Workload of its tenant was admitted or pending on its pool at some time since its start: it
 *                     is never a no-show
 * @param done         the ids of what was sent or passed over: notice ids and {@link LifecycleRules#releaseId}
 */
public record TrackedBooking(
        Booking booking, Instant endArmedAt, Instant watchedFrom, boolean workloadSeen, Set<String> done) {

    public TrackedBooking {
        done = Set.copyOf(done);
    }

    /** A booking first seen ACTIVE at {@code now}: armed since its start, nothing sent yet. */
    static TrackedBooking first(Booking booking, Instant now) {
        return new TrackedBooking(booking, booking.start(), now, false, Set.of());
    }

    TrackedBooking with(Booking latest, Instant armedAt) {
        return new TrackedBooking(latest, armedAt, watchedFrom, workloadSeen, done);
    }

    TrackedBooking seenWorkload() {
        return new TrackedBooking(booking, endArmedAt, watchedFrom, true, done);
    }

    TrackedBooking doneWith(Set<String> ids) {
        Set<String> all = new TreeSet<>(done);
        all.addAll(ids);
        return new TrackedBooking(booking, endArmedAt, watchedFrom, workloadSeen, all);
    }
}
