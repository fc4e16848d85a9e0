package io.gpuaas.booking.budget;

import io.gpuaas.booking.budget.BudgetMeasure.Amount;
import io.gpuaas.booking.budget.TenantLedger.Counted;
import io.gpuaas.booking.budget.TenantLedger.Hold;
import io.gpuaas.booking.budget.TenantLedger.KeyUse;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * A tenant's budget state in memory: the whole {@link TenantLedger} as a {@link LedgerAccess}. Used to decide over a
 * {@code TenantLedger} (tests) and to read a ledger stored in the old one-value-per-tenant layout into the new one.
 */
public final class MemoryLedger implements LedgerAccess {

    private TenantSummary summary;
    private final SortedMap<String, Counted> bookings;
    private final SortedMap<String, Hold> holds;
    private final SortedMap<String, KeyUse> keys;

    private MemoryLedger(
            TenantSummary summary,
            SortedMap<String, Counted> bookings,
            SortedMap<String, Hold> holds,
            SortedMap<String, KeyUse> keys) {
        this.summary = summary;
        this.bookings = bookings;
        this.holds = holds;
        this.keys = keys;
    }

    /** A tenant nothing is known of yet. */
    public static MemoryLedger empty(String tenant) {
        return new MemoryLedger(TenantSummary.empty(tenant), new TreeMap<>(), new TreeMap<>(), new TreeMap<>());
    }

    /** A copy of {@code ledger}, its totals summed once over its items (open months on its clock). */
    public static MemoryLedger of(TenantLedger ledger) {
        TenantSummary summary = new TenantSummary(
                ledger.tenant(), ledger.budgets(), null, null, ledger.told(), ledger.refused(), null, ledger.clock());
        ledger.bookings().values().forEach(c -> summary.add(c.booked(), c.months(), 1));
        ledger.holds().forEach((id, h) -> {
            summary.add(false, h.months(), 1);
            if (h.waiting()) {
                summary.waiting()
                        .computeIfAbsent(h.bookingId(), b -> new TreeSet<>())
                        .add(id);
            }
        });
        return new MemoryLedger(
                summary, new TreeMap<>(ledger.bookings()), new TreeMap<>(ledger.holds()), new TreeMap<>(ledger.keys()));
    }

    /** The state as a {@link TenantLedger}. */
    public TenantLedger toLedger() {
        return new TenantLedger(
                summary.tenant(),
                summary.budgets(),
                bookings,
                holds,
                summary.told(),
                summary.refused(),
                keys,
                summary.clock());
    }

    /** Every booking counted, by id. */
    public Map<String, Counted> bookings() {
        return bookings;
    }

    /** Every hold, by request id. */
    public Map<String, Hold> holds() {
        return holds;
    }

    /** Every idempotency key's first use. */
    public Map<String, KeyUse> keys() {
        return keys;
    }

    /** What the items sum to in {@code month}: booked (true) or held (false), for checking the summary's totals. */
    public Amount sum(String month, boolean booked) {
        Amount sum = Amount.ZERO;
        for (Counted c : bookings.values()) {
            if (c.booked() == booked) {
                sum = sum.plus(c.months().getOrDefault(month, Amount.ZERO));
            }
        }
        if (!booked) {
            for (Hold h : holds.values()) {
                sum = sum.plus(h.months().getOrDefault(month, Amount.ZERO));
            }
        }
        return sum;
    }

    @Override
    public TenantSummary summary() {
        return summary;
    }

    @Override
    public void summary(TenantSummary summary) {
        this.summary = summary;
    }

    @Override
    public Counted booking(String id) {
        return bookings.get(id);
    }

    @Override
    public void putBooking(String id, Counted counted) {
        bookings.put(id, counted);
    }

    @Override
    public void removeBooking(String id) {
        bookings.remove(id);
    }

    @Override
    public Hold hold(String requestId) {
        return holds.get(requestId);
    }

    @Override
    public void putHold(String requestId, Hold hold) {
        holds.put(requestId, hold);
    }

    @Override
    public void removeHold(String requestId) {
        holds.remove(requestId);
    }

    @Override
    public KeyUse key(String key) {
        return keys.get(key);
    }

    @Override
    public void putKey(String key, KeyUse use) {
        keys.put(key, use);
    }

    @Override
    public void sweep(UnaryOperator<Counted> bookings, UnaryOperator<Hold> holds, Predicate<KeyUse> keepKey) {
        this.bookings.replaceAll((id, c) -> bookings.apply(c));
        this.bookings.values().removeIf(Objects::isNull);
        this.holds.replaceAll((id, h) -> holds.apply(h));
        this.holds.values().removeIf(Objects::isNull);
        this.keys.values().removeIf(k -> !keepKey.test(k));
    }
}
