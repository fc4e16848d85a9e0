package io.gpuaas.events.budget;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingCommand;
import io.gpuaas.events.booking.Caller;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/**
 * What booking-service's budget stage decides, one tenant at a time: the values of {@code gpuaas.budget-commands},
 * keyed by tenant. The HTTP edge writes budgets and the create, change and series requests (every tenant's, so a
 * budget set meanwhile is never bypassed); the stage holds what a request needs per month, refuses it when that would
 * take the month over its budget, and otherwise forwards it to {@code gpuaas.booking-commands}. The outcomes come back
 * as {@link BookingOutcome}, the booking events re-keyed by tenant by the same Streams application.
 */
public sealed interface BudgetCommand
        permits BudgetCommand.SetBudget,
                BudgetCommand.HoldCreate,
                BudgetCommand.HoldChange,
                BudgetCommand.HoldSeries,
                BudgetCommand.BookingOutcome {

    /** The tenant (the record key). */
    String tenant();

    /**
     * An admin sets (or replaces) a tenant's budget for one UTC month.
     *
     * @param requestId   unique id of the request
     * @param caller      the admin
     * @param tenant      the tenant (the record key)
     * @param month       {@code yyyy-MM}
     * @param unit        what the limit counts
     * @param limit       the budget, at least 0
     * @param currency    for a cost budget the catalog's ISO 4217 code; null for GPU-hours
     * @param requestedAt when the HTTP edge accepted it
     */
    record SetBudget(
            String requestId,
            Caller caller,
            String tenant,
            String month,
            TenantBudget.Unit unit,
            BigDecimal limit,
            String currency,
            Instant requestedAt)
            implements BudgetCommand {}

    /**
     * A create on its way to its pool's decision engine.
     *
     * @param tenant the tenant it books for (the record key)
     * @param create the create, forwarded unchanged but for its {@link BudgetHold}
     */
    record HoldCreate(String tenant, BookingCommand.CreateBooking create) implements BudgetCommand {}

    /**
     * A change of a booking's window on its way to its pool's decision engine.
     *
     * @param tenant the booking's tenant (the record key)
     * @param change the change, forwarded unchanged but for its {@link BudgetHold}
     */
    record HoldChange(String tenant, BookingCommand.ChangeBooking change) implements BudgetCommand {}

    /**
     * A recurring series on its way to its pool's decision engine; it holds the total of its occurrences.
     *
     * @param tenant the tenant it books for (the record key)
     * @param series the series request, forwarded unchanged
     */
    record HoldSeries(String tenant, BookingCommand.CreateSeries series) implements BudgetCommand {}

    /**
     * A booking event of the tenant, re-keyed by tenant: what became of a request and of a booking.
     *
     * @param tenant    the tenant (the record key)
     * @param requestId the request the event answers, or null (the lifecycle clock, a waitlist booking)
     * @param bookingId the booking (series id for a series' answer)
     * @param outcome   DECIDED: the request's hold ends and {@code bookings} are the states it left; WAITING: the
     *                  request waits (approval or waitlist) and keeps its hold; ENDED: a waiting request ended without
     *                  a booking
     * @param bookings  the booking states the event carries (none for a refusal, the booked occurrences of a series)
     * @param time      when the decision engine decided
     */
    record BookingOutcome(
            String tenant, String requestId, String bookingId, Outcome outcome, List<Booking> bookings, Instant time)
            implements BudgetCommand {

        public BookingOutcome {
            bookings = bookings == null ? List.of() : List.copyOf(bookings);
        }

        /** What the event means for a hold. */
        public enum Outcome {
            DECIDED,
            WAITING,
            ENDED
        }
    }
}
