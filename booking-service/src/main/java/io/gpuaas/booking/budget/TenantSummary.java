package io.gpuaas.booking.budget;

import io.gpuaas.booking.budget.BudgetMeasure.Amount;
import io.gpuaas.booking.budget.TenantLedger.Limit;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The small part of what the budget stage knows of one tenant, read and written on every record: its budgets, the
 * running totals per open month, the thresholds told, the months refused, which waiting holds each booking has, and
 * the clock. What each booking counts, what each request holds and each idempotency key's first use are items of
 * their own ({@link LedgerAccess}); the totals are kept equal to the sums over those items (exact decimal
 * arithmetic), so a record costs the same however many bookings the tenant has.
 *
 * @param tenant  the tenant
 * @param budgets month ({@code yyyy-MM}) → its budget
 * @param booked  open month → what the tenant's confirmed bookings count there
 * @param held    open month → what holds and bookings awaiting approval count there
 * @param told    month → thresholds (percent) already told
 * @param refused months where a request was refused for budget and nothing was given back since
 * @param waiting booking id → the request ids of its waiting holds (so a booking's end finds them without a scan)
 * @param clock   the latest record time the stage saw for the tenant (null before the first)
 */
public record TenantSummary(
        String tenant,
        SortedMap<String, Limit> budgets,
        SortedMap<String, Amount> booked,
        SortedMap<String, Amount> held,
        SortedMap<String, SortedSet<Integer>> told,
        SortedSet<String> refused,
        SortedMap<String, SortedSet<String>> waiting,
        Instant clock) {

    public TenantSummary {
        budgets = budgets == null ? new TreeMap<>() : new TreeMap<>(budgets);
        booked = booked == null ? new TreeMap<>() : new TreeMap<>(booked);
        held = held == null ? new TreeMap<>() : new TreeMap<>(held);
        told = deepCopy(told);
        refused = refused == null ? new TreeSet<>() : new TreeSet<>(refused);
        waiting = deepCopy(waiting);
    }

    /** A tenant nothing is known of yet. */
    public static TenantSummary empty(String tenant) {
        return new TenantSummary(tenant, null, null, null, null, null, null, null);
    }

    /** A copy with the clock moved to {@code now} unless it is already later (the clock never goes back). */
    TenantSummary copyAt(Instant now) {
        Instant later = clock == null || now.isAfter(clock) ? now : clock;
        return new TenantSummary(tenant, budgets, booked, held, told, refused, waiting, later);
    }

    /** The first month that can still change: the month before the clock's ({@link TenantLedger#openFrom()}). */
    public String openFrom() {
        return openFrom(clock);
    }

    static String openFrom(Instant clock) {
        return clock == null
                ? ""
                : YearMonth.from(clock.atOffset(ZoneOffset.UTC)).minusMonths(1).toString();
    }

    /** Whether {@code month} is closed: nothing in it is kept or counted any more. */
    public boolean closed(String month) {
        return month.compareTo(openFrom()) < 0;
    }

    /** {@code months} without the closed ones. */
    SortedMap<String, Amount> open(Map<String, Amount> months) {
        SortedMap<String, Amount> open = new TreeMap<>(months);
        open.keySet().removeIf(this::closed);
        return open;
    }

    /** What the tenant's confirmed bookings count in {@code month}. */
    public Amount booked(String month) {
        return booked.getOrDefault(month, Amount.ZERO);
    }

    /** What requests being decided, bookings awaiting approval and waiting requests hold in {@code month}. */
    public Amount held(String month) {
        return held.getOrDefault(month, Amount.ZERO);
    }

    /** booked + held in {@code month}. */
    Amount taken(String month) {
        return booked(month).plus(held(month));
    }

    /** Forgets the closed months' budgets, thresholds told, refusals and totals. */
    void pruneMonths() {
        if (clock == null) {
            return;
        }
        budgets.keySet().removeIf(this::closed);
        told.keySet().removeIf(this::closed);
        refused.removeIf(this::closed);
        booked.keySet().removeIf(this::closed);
        held.keySet().removeIf(this::closed);
    }

    /** Adds {@code months} (their open months) to the booked or held totals, or takes them off ({@code sign} -1). */
    void add(boolean toBooked, SortedMap<String, Amount> months, int sign) {
        SortedMap<String, Amount> totals = toBooked ? booked : held;
        months.forEach((month, amount) -> {
            if (closed(month)) {
                return; // closed months have no totals
            }
            Amount was = totals.getOrDefault(month, Amount.ZERO);
            Amount now = sign > 0 ? was.plus(amount) : was.minus(amount);
            if (now.gpuHours().signum() == 0 && now.cost().signum() == 0) {
                totals.remove(month);
            } else {
                totals.put(month, now);
            }
        });
    }

    private static <T extends Comparable<T>> SortedMap<String, SortedSet<T>> deepCopy(
            SortedMap<String, SortedSet<T>> map) {
        SortedMap<String, SortedSet<T>> copy = new TreeMap<>();
        if (map != null) {
            map.forEach((k, s) -> copy.put(k, new TreeSet<>(s)));
        }
        return copy;
    }
}
