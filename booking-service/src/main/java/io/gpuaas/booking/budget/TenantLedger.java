package io.gpuaas.booking.budget;

import io.gpuaas.booking.budget.BudgetMeasure.Amount;
import io.gpuaas.events.budget.TenantBudget;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Everything the budget stage knows of one tenant: its budgets per month, what each of its bookings counts per month,
 * what each request still being decided holds, which thresholds were told, and the months with a budget refusal since
 * the last give-back. The value of the store {@code budget-ledgers} (key tenant). Sorted maps, so its JSON and every
 * sum over it are the same on every replay.
 *
 * @param tenant   the tenant
 * @param budgets  month ({@code yyyy-MM}) → its budget
 * @param bookings booking id → what it counts
 * @param holds    request id → what it holds
 * @param told     month → thresholds (percent) already told
 * @param refused  months where a request was refused for budget and nothing was given back since
 */
public record TenantLedger(
        String tenant,
        SortedMap<String, Limit> budgets,
        SortedMap<String, Counted> bookings,
        SortedMap<String, Hold> holds,
        SortedMap<String, SortedSet<Integer>> told,
        SortedSet<String> refused) {

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
    }

    /** A tenant nothing is known of yet. */
    public static TenantLedger empty(String tenant) {
        return new TenantLedger(tenant, null, null, null, null, null);
    }

    /** A copy the decider may change without touching this one. */
    TenantLedger copy() {
        return new TenantLedger(tenant, budgets, bookings, holds, told, refused);
    }

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
     * What a booking counts.
     *
     * @param version  the booking's version it was counted at (an older state is ignored)
     * @param booked   confirmed (true) or awaiting approval (false: counted as held)
     * @param resource the booking's resource (on a flexible pool it names the units' profile)
     * @param quantity the booking's units
     * @param months   month → amount
     */
    public record Counted(
            long version, boolean booked, String resource, int quantity, SortedMap<String, Amount> months) {
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

    /** booked + held in {@code month}. */
    Amount taken(String month) {
        return booked(month).plus(held(month));
    }

    /** Every month the tenant has a figure or a budget in. */
    SortedSet<String> months() {
        SortedSet<String> months = new TreeSet<>(budgets.keySet());
        bookings.values().forEach(c -> months.addAll(c.months().keySet()));
        holds.values().forEach(h -> months.addAll(h.months().keySet()));
        return months;
    }

    static SortedMap<String, Amount> sorted(Map<String, Amount> months) {
        return new TreeMap<>(months);
    }
}
