package io.gpuaas.booking.model;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingEvent;
import java.util.List;

/**
 * What the decider concluded for one command or one clock tick: the events to publish and the booking states
 * to store, to be applied together in one exactly-once step.
 *
 * @param events      events for {@code booking-events}, in order
 * @param changes     new booking states for the store and the compacted {@code bookings} topic
 * @param idempotency the answer to remember under the command's idempotency key, or null
 */
public record Decision(List<BookingEvent> events, List<Booking> changes, Remembered idempotency) {

    public static Decision of(BookingEvent event, Booking change) {
        return new Decision(List.of(event), change == null ? List.of() : List.of(change), null);
    }

    public Decision remembering(Remembered remembered) {
        return new Decision(events, changes, remembered);
    }

    /** An idempotency entry and its tenant-scoped key. */
    public record Remembered(String scopedKey, IdempotencyEntry entry) {}
}
