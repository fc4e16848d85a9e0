package io.gpuaas.events.budget;

import java.math.BigDecimal;
import java.util.List;

/**
 * What the budget stage set aside for a create or a change it let through, per UTC month: the pool's decision engine
 * confirms the request only if what it actually books (a book-now's window starts at the engine's instant, not the
 * stage's) needs no more than this in any month, else refuses it {@code BUDGET_EXCEEDED}. So a tenant's confirmed
 * amount never passes what the stage checked against its budget.
 *
 * @param unit   what the amounts count
 * @param months the amount set aside per month, in order of month; a month not listed has nothing set aside
 */
public record BudgetHold(TenantBudget.Unit unit, List<MonthAmount> months) {

    public BudgetHold {
        months = months == null ? List.of() : List.copyOf(months);
    }

    /** What is set aside in {@code month}: zero when it is not listed. */
    public BigDecimal in(String month) {
        return months.stream()
                .filter(m -> m.month().equals(month))
                .map(MonthAmount::amount)
                .findFirst()
                .orElse(BigDecimal.ZERO);
    }

    /**
     * An amount in one UTC month.
     *
     * @param month  {@code yyyy-MM}
     * @param amount the amount, at least 0
     */
    public record MonthAmount(String month, BigDecimal amount) {}
}
