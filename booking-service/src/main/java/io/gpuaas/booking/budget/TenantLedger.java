package io.gpuaas.booking.budget;

import io.gpuaas.booking.budget.BudgetMeasure.Amount;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.budget.TenantBudget;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Everything the budget stage knows of one tenant, in one value: its budgets per month, what each of its bookings
 * counts per month, what each request still being decided holds, which thresholds were told, and the months with a
 * budget refusal since the last give-back. The stage keeps this split into a {@link TenantSummary} and one item per
 * booking, hold and key ({@link LedgerAccess}); this whole form is what {@link BudgetDecider#decide(
 * io.gpuaas.events.budget.BudgetCommand, TenantLedger, java.time.Instant)} takes and gives in memory (tests), and the
 * value of the old store {@code budget-ledgers}, read once per tenant into the new layout. Sorted maps, so its JSON
 * and every sum over it are the same on every replay.
 *
 * @param tenant   the tenant
 * @param budgets  month ({@code yyyy-MM}) → its budget
 * @param bookings booking id → what it counts
 * @param holds    request id → what it holds
 * @param told     month → thresholds (percent) already told
 * @param refused  months where a request was refused for budget and nothing was given back since
 * @param keys     scoped idempotency key → its first use (a retry is answered as the first use was)
 * @param clock    the latest record time the stage saw for the tenant (null before the first): the stamp of every
 *                 state it writes, and what decides which months are closed ({@link #openFrom()})
 */
public record TenantLedger(
        String tenant,
        SortedMap<String, Limit> budgets,
        SortedMap<String, Counted> bookings,
        SortedMap<String, Hold> holds,
        SortedMap<String, SortedSet<Integer>> told,
        SortedSet<String> refused,
        SortedMap<String, KeyUse> keys,
        Instant clock) {

    public TenantLedger {
        budgets = budgets == null ? new TreeMap<>() : new TreeMap<>(budgets);
        bookings = bookings == null ? new TreeMap<>() : new TreeMap<>(bookings);
        holds = holds == null ? new TreeMap<>() : new TreeMap<>(holds);
        SortedMap<String, SortedSet<Integer>> toldCopy = new TreeMap<>();
        if (told != null) {
            told.forEach((m, s) -> toldCopy.put(m, new TreeSet<>(s)));
        }
        told = toldCopy;
        refused = refused == null ? new TreeSet<>() : new TreeSet<>(refused);
        keys = keys == null ? new TreeMap<>() : new TreeMap<>(keys);
    }

    /** A tenant nothing is known of yet. */
    public static TenantLedger empty(String tenant) {
        return new TenantLedger(tenant, null, null, null, null, null, null, null);
    }

    /**
     * The first month that can still change: the month before the clock's. A month is closed once the clock is past
     * the end of the month after it: no request decided after a month ended can book in it (a window starts at or
     * after its decision), and a whole month is left for the answers decided before that to come back.
     */
    public String openFrom() {
        return TenantSummary.openFrom(clock);
    }

    /** Whether {@code month} is closed: nothing in it is kept or counted any more. */
    public boolean closed(String month) {
        return month.compareTo(openFrom()) < 0;
    }

    /**
     * The first use of an idempotency key.
     *
     * @param fingerprint what the key was used for ({@code IdempotencyGuard}'s fingerprint, as the pool's decider has it)
     * @param at          when the stage first saw it
     * @param refusal     the stage's refusal of that first use, or null when it was passed on to the pool
     */
    public record KeyUse(String fingerprint, Instant at, BookingEvent.BookingRejected refusal) {}

    /**
     * A month's budget.
     *
     * @param unit     what it counts
     * @param limit    the budget
     * @param currency of a cost budget; null for GPU-hours
     * @param setAt    when it was set
     */
    public record Limit(TenantBudget.Unit unit, BigDecimal limit, String currency, Instant setAt) {}

    /**
     * What a booking counts. A booking that counts nothing any more (cancelled, denied) stays, with no months, until
     * its last month closes: an older state of it read later (an idempotent retry's answer carries the booking as it
     * was first answered) is then ignored rather than counted again.
     *
     * @param version   the booking's version it was counted at (an older state is ignored)
     * @param booked    confirmed (true) or awaiting approval (false: counted as held)
     * @param resource  the booking's resource (on a flexible pool it names the units' profile)
     * @param quantity  the booking's units
     * @param months    month → amount
     * @param lastMonth the month its window ends in: kept until that month closes (null in ledgers stored before it
     *                  existed: kept while it counts something)
     */
    public record Counted(
            long version,
            boolean booked,
            String resource,
            int quantity,
            SortedMap<String, Amount> months,
            String lastMonth) {
        public Counted {
            months = months == null ? new TreeMap<>() : new TreeMap<>(months);
        }
    }

    /**
     * What a request still being decided holds.
     *
     * @param bookingId the booking (or series) it is for
     * @param waiting   whether it waits for room on the waitlist
     * @param months    month → amount
     * @param at        when it was placed
     */
    public record Hold(String bookingId, boolean waiting, SortedMap<String, Amount> months, Instant at) {
        public Hold {
            months = months == null ? new TreeMap<>() : new TreeMap<>(months);
        }
    }

    /** What the tenant's confirmed bookings count in {@code month}. */
    public Amount booked(String month) {
        Amount sum = Amount.ZERO;
        for (Counted c : bookings.values()) {
            if (c.booked()) {
                sum = sum.plus(c.months().getOrDefault(month, Amount.ZERO));
            }
        }
        return sum;
    }

    /** What requests being decided, bookings awaiting approval and waiting requests hold in {@code month}. */
    public Amount held(String month) {
        Amount sum = Amount.ZERO;
        for (Hold h : holds.values()) {
            sum = sum.plus(h.months().getOrDefault(month, Amount.ZERO));
        }
        for (Counted c : bookings.values()) {
            if (!c.booked()) {
                sum = sum.plus(c.months().getOrDefault(month, Amount.ZERO));
            }
        }
        return sum;
    }
}
