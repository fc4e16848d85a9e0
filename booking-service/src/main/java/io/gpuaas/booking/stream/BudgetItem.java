package io.gpuaas.booking.stream;

import io.gpuaas.booking.budget.TenantLedger.Counted;
import io.gpuaas.booking.budget.TenantLedger.Hold;
import io.gpuaas.booking.budget.TenantLedger.KeyUse;

/**
 * One value of the store {@code budget-items} (key {@code tenant NUL kind:id}, {@link StoreLedger}): exactly one of
 * what a booking counts, what a request holds, or an idempotency key's first use.
 */
public record BudgetItem(Counted booking, Hold hold, KeyUse key) {}
