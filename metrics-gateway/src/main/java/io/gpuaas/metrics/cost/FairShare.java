package io.gpuaas.metrics.cost;

import io.gpuaas.metrics.cost.Costs.Cost;
import io.gpuaas.metrics.ledger.Ledger;
import io.gpuaas.metrics.ledger.Ledger.DayRow;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The fair-share report of one calendar month (UTC): per tenant its booked, used (busy) and idle GPU-hours and their
 * cost, and its share of the fleet's used GPU-hours. The fleet is every tenant, whoever asks: a tenant sees its own
 * row only, but its share of everyone's use. Summed from the ledger's day rows (each priced on its own day), so the
 * report equals the sum of the usage API's day view over the month to the digit.
 *
 * <p>metrics-gateway does not read the budgets: {@link Row#budget()} and {@link Row#budgetShare()} are null on every
 * row, and the CSV leaves their columns empty; booking-service joins the budgets into the report it forwards.
 */
public final class FairShare {

    /** Decimals of a share (a fraction of the fleet). */
    static final int SHARE_SCALE = 6;

    /**
     * One tenant's month.
     *
     * @param usedShare   this tenant's used GPU-hours over the fleet's, null when the fleet used none
     * @param budget      the tenant's budget of the month; null here (booking-service joins budgets)
     * @param budgetShare its budget over the sum of all budgets; null here (booking-service joins them)
     */
    public record Row(
            String tenant,
            double booked,
            double used,
            double idle,
            Cost cost,
            BigDecimal usedShare,
            BigDecimal budget,
            BigDecimal budgetShare) {}

    /** The month's report: the fleet's sums and the rows of the tenants asked for, sorted by tenant. */
    public record Report(YearMonth month, String currency, Row fleet, List<Row> rows) {}

    private final Costs costs;

    public FairShare(Costs costs) {
        this.costs = costs;
    }

    /** The report of {@code month} from {@code ledger}, with the rows of the tenants {@code shown} admits. */
    public Report of(Ledger ledger, YearMonth month, Predicate<String> shown) {
        List<DayRow> days = ledger.days(month.atDay(1), month.plusMonths(1).atDay(1), t -> true);
        Map<String, Sums> byTenant = new TreeMap<>();
        Sums fleet = new Sums();
        for (DayRow day : days) {
            Cost cost = costs.of(day);
            byTenant.computeIfAbsent(day.tenant(), t -> new Sums()).add(day, cost);
            fleet.add(day, cost);
        }
        List<Row> rows = new ArrayList<>();
        byTenant.forEach((tenant, sums) -> {
            if (shown.test(tenant)) {
                rows.add(sums.row(tenant, fleet.used));
            }
        });
        return new Report(month, costs.currency().orElse(null), fleet.row(null, fleet.used), List.copyOf(rows));
    }

    /** Sums as BigDecimal: the day rows' six-decimal figures add up exactly, in any order. */
    private static final class Sums {
        private BigDecimal booked = BigDecimal.ZERO;
        private BigDecimal used = BigDecimal.ZERO;
        private BigDecimal idle = BigDecimal.ZERO;
        private Cost cost = Cost.ZERO;

        void add(DayRow day, Cost dayCost) {
            booked = booked.add(BigDecimal.valueOf(day.figures().booked()));
            used = used.add(BigDecimal.valueOf(day.figures().busy()));
            idle = idle.add(BigDecimal.valueOf(day.figures().idle()));
            cost = cost.plus(dayCost);
        }

        Row row(String tenant, BigDecimal fleetUsed) {
            BigDecimal share =
                    fleetUsed.signum() == 0 ? null : used.divide(fleetUsed, SHARE_SCALE, RoundingMode.HALF_EVEN);
            return new Row(
                    tenant, booked.doubleValue(), used.doubleValue(), idle.doubleValue(), cost, share, null, null);
        }
    }
}
