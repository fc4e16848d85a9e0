package io.gpuaas.booking.budget;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.WaitlistEntry;
import io.gpuaas.events.budget.BudgetCommand.BookingOutcome;
import io.gpuaas.events.budget.BudgetCommand.BookingOutcome.Outcome;
import java.util.List;
import java.util.Optional;

/** A booking event as the budget stage reads it: what became of a request's hold and of the booking. */
public final class BudgetOutcomes {

    private BudgetOutcomes() {}

    /** The event re-keyed for its tenant, or empty when it changes nothing a budget counts. */
    public static Optional<BookingOutcome> of(BookingEvent event) {
        return switch (event) {
            case BookingEvent.BookingRejected e ->
                Optional.of(new BookingOutcome(
                        e.tenant(), e.requestId(), e.bookingId(), Outcome.DECIDED, List.of(), e.time()));
            case BookingEvent.SeriesDecided e ->
                Optional.of(new BookingOutcome(
                        e.tenant(), e.requestId(), e.seriesId(), Outcome.DECIDED, e.confirmed(), e.time()));
            case BookingEvent.SeriesCancelled e -> Optional.empty(); // each occurrence's BookingCancelled follows
            case BookingEvent.BookingWaitlisted e -> waiting(e.requestId(), e.entry(), Outcome.WAITING, e);
            case BookingEvent.WaitlistEnded e ->
                e.entry().state() == WaitlistEntry.State.BOOKED
                        ? Optional.empty() // its BookingConfirmed follows
                        : waiting(e.requestId(), e.entry(), Outcome.ENDED, e);
            case BookingEvent.BookingConfirmed e -> decided(e, e.booking());
            case BookingEvent.BookingCancelled e -> decided(e, e.booking());
            case BookingEvent.BookingExtended e -> decided(e, e.booking());
            case BookingEvent.BookingActivated e -> decided(e, e.booking());
            case BookingEvent.BookingCompleted e -> Optional.empty(); // counts what it counted while active
            case BookingEvent.BookingReleased e -> decided(e, e.booking());
            case BookingEvent.BookingMoved e -> Optional.empty(); // a placement moves, its window does not
            case BookingEvent.WorkloadKeepDecided e -> Optional.empty(); // a keep holds no budget
            case BookingEvent.BookingPendingApproval e -> decided(e, e.booking());
            case BookingEvent.BookingApprovalDecided e -> decided(e, e.booking());
        };
    }

    private static Optional<BookingOutcome> decided(BookingEvent event, Booking booking) {
        return Optional.of(new BookingOutcome(
                booking.tenant(), event.requestId(), booking.id(), Outcome.DECIDED, List.of(booking), event.time()));
    }

    private static Optional<BookingOutcome> waiting(
            String requestId, WaitlistEntry entry, Outcome outcome, BookingEvent event) {
        return Optional.of(new BookingOutcome(entry.tenant(), requestId, entry.id(), outcome, List.of(), event.time()));
    }
}
