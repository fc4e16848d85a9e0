package io.gpuaas.metrics.metrics;

import io.gpuaas.events.usage.UsageDaily.Figures;
import io.gpuaas.metrics.cost.Costs;
import io.gpuaas.metrics.ledger.Kind;
import io.gpuaas.metrics.ledger.Ledger;
import io.gpuaas.metrics.ledger.LedgerSnapshots;
import java.util.Map;

/**
 * {@code gpuaas_ledger_gpu_hours{kind,pool,tenant}}: the ledger's GPU-hours accrued so far (every window cut at the
 * latest event time folded), one series per tenant, pool and kind (booked, admitted, busy, idle, reclaimed,
 * released): tenants × pools × 6, never a booking id. A gauge, not a counter: a cancellation or release folded after
 * later samples shortens a window already counted, so a figure can go down, which Prometheus would read as a reset.
 * Beside it {@code gpuaas_ledger_cost{kind,pool,tenant,currency}} ({@link CostTotals}), a gauge for the same reason.
 */
public final class LedgerMetrics {

    private final LedgerSnapshots ledger;
    private final CostTotals costs;

    public LedgerMetrics(LedgerSnapshots ledger, Costs costs) {
        this.ledger = ledger;
        this.costs = new CostTotals(costs);
    }

    public void writeTo(Exposition out) {
        Exposition.Family hours = out.gauge(
                "gpuaas_ledger_gpu_hours",
                "GPU-hours of the ledger accrued so far per tenant and pool (MIG slices weighted by their share)",
                "kind",
                "pool",
                "tenant");
        Ledger current = ledger.current().orElse(null);
        if (current != null) {
            for (Map.Entry<String, Map<String, Figures>> tenant :
                    current.totals().entrySet()) {
                tenant.getValue().forEach((pool, f) -> {
                    double[] values = {f.booked(), f.admitted(), f.busy(), f.idle(), f.reclaimed(), f.released()};
                    for (Kind kind : Kind.values()) {
                        hours.add(values[kind.ordinal()], kind.label(), pool, tenant.getKey());
                    }
                });
            }
        }
        costs.writeTo(out, current);
    }
}
