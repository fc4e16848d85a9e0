package io.gpuaas.booking.kafka;

import io.gpuaas.events.budget.TenantBudget;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The latest state of every tenant's monthly budget, from the compacted {@code gpuaas.budgets} (read from the
 * beginning by the booking feed). Eventually consistent with the budget stage, which alone decides.
 */
public final class BudgetView {

    private final Map<String, TenantBudget> byKey = new ConcurrentHashMap<>();

    /**
     * Applies a state: the later one in the log replaces the earlier. The stage alone writes a key, in order, under
     * exactly-once, so log order is its order. {@code updatedAt} never goes back now (the stage stamps with its clock
     * per tenant), but it can stay the same across several states, and states written before that clock existed (a
     * compacted topic keeps them) carry their input record's time, which can go back: neither orders them.
     */
    public void upsert(TenantBudget budget) {
        byKey.put(TenantBudget.key(budget.tenant(), budget.month()), budget);
    }

    public Optional<TenantBudget> find(String tenant, String month) {
        return Optional.ofNullable(byKey.get(TenantBudget.key(tenant, month)));
    }

    /** Every tenant's budget of {@code month}, by tenant. */
    public List<TenantBudget> month(String month) {
        return byKey.values().stream()
                .filter(b -> b.month().equals(month))
                .sorted(Comparator.comparing(TenantBudget::tenant))
                .toList();
    }
}
