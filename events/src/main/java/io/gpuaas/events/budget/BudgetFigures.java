package io.gpuaas.events.budget;

import java.math.BigDecimal;

/**
 * Why a request was refused for budget ({@code BUDGET_EXCEEDED}): the month it would take over its budget and the
 * figures of that month when it was decided.
 *
 * @param month    the UTC month, {@code yyyy-MM}
 * @param unit     what the budget counts
 * @param limit    the budget
 * @param currency ISO 4217 code of a cost budget; null for GPU-hours
 * @param booked   what confirmed bookings hold in the month
 * @param held     what other requests still being decided hold in the month
 * @param needed   what the refused request needs in the month
 */
public record BudgetFigures(
        String month,
        TenantBudget.Unit unit,
        BigDecimal limit,
        String currency,
        BigDecimal booked,
        BigDecimal held,
        BigDecimal needed) {}
