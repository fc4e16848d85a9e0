package io.gpuaas.metrics.metrics;

import io.gpuaas.metrics.cost.Costs;
import io.gpuaas.metrics.cost.Costs.Cost;
import io.gpuaas.metrics.ledger.Ledger;
import io.gpuaas.metrics.ledger.Ledger.DayRow;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code gpuaas_ledger_cost{kind,pool,tenant,currency}}: the cost of the GPU-hours {@code gpuaas_ledger_gpu_hours}
 * shows (booked, busy and idle; each day priced at its own price), one series per tenant, pool and kind, in the
 * catalog's one currency. A gauge: it follows the hours, which can go down. No OpenMetrics {@code UNIT}: a currency is
 * not a base unit Prometheus names (a unit must also end the name), so the currency is a label, one value. The sums
 * are computed once per ledger snapshot, not per scrape.
 */
final class CostTotals {

    private final Costs costs;
    private Ledger pricedLedger;
    private Map<String, Map<String, Cost>> priced = Map.of();

    CostTotals(Costs costs) {
        this.costs = costs;
    }

    void writeTo(Exposition out, Ledger current) {
        Exposition.Family family = out.gauge(
                "gpuaas_ledger_cost",
                "Cost of the ledger's booked, busy and idle GPU-hours accrued so far per tenant and pool, at the pool "
                        + "catalog's price of each day (currency in the label)",
                "kind",
                "pool",
                "tenant",
                "currency");
        String currency = costs.currency().orElse(null);
        if (current == null || currency == null) {
            return;
        }
        totals(current)
                .forEach((tenant, pools) -> pools.forEach((pool, cost) -> {
                    family.add(cost.booked().doubleValue(), "booked", pool, tenant, currency);
                    family.add(cost.busy().doubleValue(), "busy", pool, tenant, currency);
                    family.add(cost.idle().doubleValue(), "idle", pool, tenant, currency);
                }));
    }

    private synchronized Map<String, Map<String, Cost>> totals(Ledger current) {
        if (current != pricedLedger) {
            Map<String, Map<String, Cost>> sums = new TreeMap<>();
            for (DayRow day : current.accruedDays()) {
                sums.computeIfAbsent(day.tenant(), t -> new TreeMap<>()).merge(day.pool(), costs.of(day), Cost::plus);
            }
            priced = sums;
            pricedLedger = current;
        }
        return priced;
    }
}
