package io.gpuaas.quota.k8s;

import java.time.YearMonth;
import java.util.Set;

/** The tenants over budget, per UTC month (the replicated compacted {@code gpuaas.budgets} in production). */
@FunctionalInterface
public interface BudgetSource {

    /** No budgets known: nobody is over budget. */
    BudgetSource NONE = month -> Set.of();

    /** Tenants whose budget for {@code month} says {@code overBudget}. */
    Set<String> overBudget(YearMonth month);
}
