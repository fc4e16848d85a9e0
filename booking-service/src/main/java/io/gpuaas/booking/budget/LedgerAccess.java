package io.gpuaas.booking.budget;

import io.gpuaas.booking.budget.TenantLedger.Counted;
import io.gpuaas.booking.budget.TenantLedger.Hold;
import io.gpuaas.booking.budget.TenantLedger.KeyUse;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * One tenant's budget state as {@link BudgetDecider} reads and changes it: the small {@link TenantSummary} and the
 * items one by one (what a booking counts, what a request holds, an idempotency key's first use), so a command reads
 * and writes the summary and the few items it concerns, never all of them. The decider keeps the summary's totals
 * equal to the sums over the items. Implementations: {@link MemoryLedger} (tests, a {@link TenantLedger} decided in
 * memory) and the budget processor's, over its two state stores.
 */
public interface LedgerAccess {

    TenantSummary summary();

    void summary(TenantSummary summary);

    /** What booking {@code id} counts, or null. */
    Counted booking(String id);

    void putBooking(String id, Counted counted);

    void removeBooking(String id);

    /** What request {@code requestId} holds, or null. */
    Hold hold(String requestId);

    void putHold(String requestId, Hold hold);

    void removeHold(String requestId);

    /** A scoped idempotency key's first use, or null. */
    KeyUse key(String key);

    void putKey(String key, KeyUse use);

    /**
     * Every item of the tenant, once: each booking and hold replaced by what the operator returns for it (null:
     * removed), each key use kept only where {@code keepKey} holds. The month's sweep of closed months.
     */
    void sweep(UnaryOperator<Counted> bookings, UnaryOperator<Hold> holds, Predicate<KeyUse> keepKey);
}
