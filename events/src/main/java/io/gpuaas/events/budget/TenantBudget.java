package io.gpuaas.events.budget;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * A tenant's budget for one calendar month (UTC) and where it stands; the values of the compacted
 * {@code gpuaas.budgets}, keyed by {@code <tenant>/<yyyy-MM>}. Written by booking-service's budget stage, the one
 * writer per tenant, after every change of the month's figures.
 *
 * @param tenant     the tenant
 * @param month      the UTC calendar month, {@code yyyy-MM} (e.g. {@code 2026-11})
 * @param unit       what the limit counts: weighed GPU-hours, or their cost at the pool catalog's prices
 * @param limit      the budget, in {@code unit}
 * @param currency   ISO 4217 code of a cost budget (the catalog's); null for GPU-hours
 * @param booked     what the tenant's confirmed bookings hold in this month, in {@code unit} (released, cancelled and
 *                   no-show-released hours given back)
 * @param held       what requests still being decided (or awaiting approval, or waiting for room) hold in this month
 * @param overBudget booked + held ≥ limit, or a request was refused for budget this month and nothing was given back
 *                   since
 * @param updatedAt  when these figures were decided, on the stage's clock for the tenant (the latest record time it
 *                   has seen for the tenant), so never earlier than the month's previous state
 */
public record TenantBudget(
        String tenant,
        String month,
        Unit unit,
        BigDecimal limit,
        String currency,
        BigDecimal booked,
        BigDecimal held,
        boolean overBudget,
        Instant updatedAt) {

    /** What a budget counts. */
    public enum Unit {
        /** GPU-hours, a MIG unit weighed as its share of a GPU (as the usage ledger weighs it). */
        GPU_HOURS,
        /** Cost: the weighed GPU-hours of each UTC day times the pool's price that day. */
        COST
    }

    /** The record key of a tenant's month: {@code <tenant>/<yyyy-MM>}. */
    public static String key(String tenant, String month) {
        return tenant + "/" + month;
    }
}
