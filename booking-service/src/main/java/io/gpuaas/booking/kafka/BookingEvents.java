package io.gpuaas.booking.kafka;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.BookingState;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/** Helpers over the sealed booking events. */
final class BookingEvents {

    private BookingEvents() {}

    /** The booking state an event carries, if any (rejections carry none). */
    static Optional<Booking> bookingOf(BookingEvent event) {
        return switch (event) {
            case BookingEvent.BookingConfirmed e -> Optional.of(e.booking());
            case BookingEvent.BookingCancelled e -> Optional.of(e.booking());
            case BookingEvent.BookingExtended e -> Optional.of(e.booking());
            case BookingEvent.BookingActivated e -> Optional.of(e.booking());
            case BookingEvent.BookingCompleted e -> Optional.of(e.booking());
            case BookingEvent.BookingReleased e -> Optional.of(e.booking());
            case BookingEvent.BookingMoved e -> Optional.of(e.booking());
            case BookingEvent.BookingPendingApproval e -> Optional.of(e.booking());
            case BookingEvent.BookingApprovalDecided e -> Optional.of(e.booking());
            case BookingEvent.BookingRejected e -> Optional.empty();
            case BookingEvent.SeriesDecided e -> Optional.empty();
            case BookingEvent.SeriesCancelled e -> Optional.empty();
            case BookingEvent.BookingWaitlisted e -> Optional.empty(); // an entry, not a booking (WaitlistView)
            case BookingEvent.WaitlistEnded e -> Optional.empty();
            case BookingEvent.WorkloadKeepDecided e -> Optional.empty(); // changes no booking state
        };
    }

    /**
     * Every booking state an event carries, so the view has them when the caller is answered: a series' answer carries
     * its booked occurrences (each also comes as its own confirmation, maybe later, on another partition), and a
     * series' cancel the occurrences it cancelled, taken from {@code current} (the view).
     */
    static List<Booking> bookingsOf(BookingEvent event, Function<String, Optional<Booking>> current) {
        return switch (event) {
            case BookingEvent.SeriesDecided decided -> decided.confirmed();
            case BookingEvent.SeriesCancelled cancelled -> cancelledOccurrences(cancelled, current);
            default -> bookingOf(event).stream().toList();
        };
    }

    /**
     * A series' cancel answer names the occurrences it cancelled; their own {@code BookingCancelled} events come on
     * other partitions, maybe later. The decider cancelled each CONFIRMED occurrence with
     * {@code withState(CANCELLED, time)}, so the same step on the view's CONFIRMED copy gives the same state and
     * version; a copy the view holds that is older gives a lower version, which the real event then replaces.
     */
    private static List<Booking> cancelledOccurrences(
            BookingEvent.SeriesCancelled event, Function<String, Optional<Booking>> current) {
        return event.cancelled().stream()
                .map(current)
                .flatMap(Optional::stream)
                .filter(b -> b.state() == BookingState.CONFIRMED)
                .map(b -> b.withState(BookingState.CANCELLED, event.time()))
                .toList();
    }
}
