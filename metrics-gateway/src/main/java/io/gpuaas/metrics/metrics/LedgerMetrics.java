package io.gpuaas.metrics.metrics;

import io.gpuaas.events.usage.UsageDaily.Figures;
import io.gpuaas.metrics.ledger.Kind;
import io.gpuaas.metrics.ledger.LedgerInputs;
import java.util.Map;

/**
 * {@code gpuaas_ledger_gpu_hours{kind,pool,tenant}}: the ledger's GPU-hours accrued so far (every window cut at the
 * latest event time folded), one series per tenant, pool and kind (booked, admitted, busy, idle, reclaimed,
 * released): tenants × pools × 6, never a booking id. A gauge, not a counter: a cancellation or release folded after
 * later samples shortens a window already counted, so a figure can go down, which Prometheus would read as a reset.
 */
public final class LedgerMetrics {

    private final LedgerInputs ledger;

    public LedgerMetrics(LedgerInputs ledger) {
        this.ledger = ledger;
    }

    public void writeTo(Exposition out) {
        Exposition.Family hours = out.gauge(
                "gpuaas_ledger_gpu_hours",
                "GPU-hours of the ledger accrued so far per tenant and pool (MIG slices weighted by their share)",
                "kind",
                "pool",
                "tenant");
        for (Map.Entry<String, Map<String, Figures>> tenant :
                ledger.accruedLedger().totals().entrySet()) {
            tenant.getValue().forEach((pool, f) -> {
                double[] values = {f.booked(), f.admitted(), f.busy(), f.idle(), f.reclaimed(), f.released()};
                for (Kind kind : Kind.values()) {
                    hours.add(values[kind.ordinal()], kind.label(), pool, tenant.getKey());
                }
            });
        }
    }
}
