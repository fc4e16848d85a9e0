package io.gpuaas.booking.kafka;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingEvent;
import java.util.List;
import java.util.Optional;

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
        };
    }

    /**
     * Every booking state an event carries: a series' answer carries its booked occurrences (each also comes as its
     * own confirmation, maybe later, on another partition), so the view has them when the caller is answered.
     */
    static List<Booking> bookingsOf(BookingEvent event) {
        if (event instanceof BookingEvent.SeriesDecided decided) {
            return decided.confirmed();
        }
        return bookingOf(event).stream().toList();
    }
}
