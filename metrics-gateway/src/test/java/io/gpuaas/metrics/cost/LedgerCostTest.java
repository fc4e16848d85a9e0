package io.gpuaas.metrics.cost;

import static io.gpuaas.metrics.ledger.LedgerRecords.POOLS;
import static io.gpuaas.metrics.ledger.LedgerRecords.booking;
import static io.gpuaas.metrics.ledger.LedgerRecords.confirmed;
import static io.gpuaas.metrics.ledger.LedgerRecords.scrape;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.events.pool.PoolPrice;
import io.gpuaas.metrics.cost.Costs.Cost;
import io.gpuaas.metrics.cost.FairShare.Report;
import io.gpuaas.metrics.ledger.Ledger;
import io.gpuaas.metrics.ledger.Ledger.DayRow;
import io.gpuaas.metrics.ledger.LedgerInputs;
import io.gpuaas.metrics.ledger.LedgerSnapshots;
import io.gpuaas.metrics.ledger.PublishedDays;
import io.gpuaas.metrics.ledger.Sealing;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The ledger's GPU-hours priced: MIG weights, a price schedule by day, and the fair-share report's sums. */
class LedgerCostTest {

    private static final LocalDate D1 = LocalDate.parse("2026-11-20");
    private static final LocalDate D2 = LocalDate.parse("2026-11-21");
    private static final YearMonth NOVEMBER = YearMonth.of(2026, 11);

    private final LedgerInputs inputs = new LedgerInputs(POOLS, 0.05, Duration.ofSeconds(30));

    private static Instant at(LocalDate day, String time) {
        return Instant.parse(day + "T" + time + "Z");
    }

    private static PoolPrice eur(String perGpuHour, LocalDate from) {
        return new PoolPrice(new BigDecimal(perGpuHour), "EUR", from);
    }

    /** The shipped pools, each priced by {@code prices}. */
    private static Costs priced(Function<Pool, List<PoolPrice>> prices) {
        return new Costs(new PoolCatalog(
                POOLS.pools().stream().map(p -> p.withPrices(prices.apply(p))).toList()));
    }

    private Ledger ledger() {
        LedgerSnapshots snapshots =
                new LedgerSnapshots(inputs, new PublishedDays(), new Sealing(Duration.ofDays(3650), Duration.ZERO));
        snapshots.refresh();
        return snapshots.current().orElseThrow();
    }

    private static DayRow row(Ledger ledger, String tenant, LocalDate day, String pool) {
        return ledger.days(day, day.plusDays(1), tenant::equals).stream()
                .filter(r -> r.pool().equals(pool))
                .findFirst()
                .orElseThrow();
    }

    private void book(String id, String tenant, String pool, int quantity, Instant start, Instant end) {
        Booking b = booking(id, tenant, pool, quantity, start, end);
        inputs.apply(confirmed(b));
    }

    @Test
    void shouldChargeSevenOneSliceUnitsAsOneWholeGpuWhenBothPoolsHaveTheSamePrice() {
        book("bk-mig", "team-a", "h200-mig-1g.18gb", 7, at(D1, "10:00:00"), at(D1, "12:00:00"));
        book("bk-gpu", "team-b", "h200", 1, at(D1, "10:00:00"), at(D1, "12:00:00"));
        book("bk-half", "team-c", "h200-mig-3g.71gb", 2, at(D1, "10:00:00"), at(D1, "11:00:00"));
        Costs costs = priced(p -> List.of(eur("3.00", null)));
        Ledger ledger = ledger();

        // 7 × 1/7 × 2 h = 2 GPU-hours = 6.00, as 1 × 1 × 2 h; 2 × 1/2 × 1 h = 1 GPU-hour = 3.00.
        assertThat(costs.of(row(ledger, "team-a", D1, "h200-mig-1g.18gb")).booked())
                .isEqualByComparingTo("6.000000");
        assertThat(costs.of(row(ledger, "team-b", D1, "h200")).booked()).isEqualByComparingTo("6.000000");
        assertThat(costs.of(row(ledger, "team-c", D1, "h200-mig-3g.71gb")).booked())
                .isEqualByComparingTo("3.000000");
    }

    @Test
    void shouldPriceEachDayAtItsOwnPriceAndNeverRepriceEarlierDaysWhenAPriceIsAddedFromADay() {
        book("bk-night", "team-a", "h200", 1, at(D1, "23:00:00"), at(D2, "01:00:00"));
        Ledger ledger = ledger();
        Costs before = priced(p -> List.of(eur("2.00", null)));
        Costs after = priced(p -> List.of(eur("2.00", null), eur("4.00", D2)));

        // One hour on each day: the change from D2 on leaves D1 at 2.00.
        assertThat(after.of(row(ledger, "team-a", D1, "h200")).booked())
                .isEqualByComparingTo(
                        before.of(row(ledger, "team-a", D1, "h200")).booked())
                .isEqualByComparingTo("2.000000");
        assertThat(after.of(row(ledger, "team-a", D2, "h200")).booked()).isEqualByComparingTo("4.000000");
        assertThat(new FairShare(after)
                        .of(ledger, NOVEMBER, t -> true)
                        .fleet()
                        .cost()
                        .booked())
                .isEqualByComparingTo("6.000000");
        // A pool priced only from D2 on charges nothing for D1.
        Costs late = priced(p -> List.of(eur("4.00", D2)));
        assertThat(late.of(row(ledger, "team-a", D1, "h200"))).isEqualTo(Cost.ZERO);
    }

    @Test
    void shouldPriceBusyAndIdleDeviceTimeAndChargeNothingWhenThePoolIsUnpriced() {
        book("bk-1", "team-a", "h200", 1, at(D1, "10:00:00"), at(D1, "11:00:00"));
        // 40 readings 15 s apart busy (600 s), then 20 idle (300 s).
        Instant t = at(D1, "10:00:00");
        for (int i = 0; i < 60; i++, t = t.plusSeconds(15)) {
            inputs.apply(scrape("n1", "GPU-1", "h200", "team-a", t, i < 40 ? 0.8 : 0.0));
        }
        inputs.apply(scrape("n1", "GPU-1", "h200", "team-a", t, 0.0));
        Ledger ledger = ledger();
        DayRow day = row(ledger, "team-a", D1, "h200");

        Cost cost = priced(p -> List.of(eur("3.00", null))).of(day);
        // busy 600 s = 0.166667 GPU-h × 3 = 0.500001; idle 300 s = 0.083333 × 3 = 0.249999.
        assertThat(day.figures().busy()).isEqualTo(0.166667);
        assertThat(cost.busy()).isEqualByComparingTo("0.500001");
        assertThat(cost.idle()).isEqualByComparingTo("0.249999");
        Costs unpriced = priced(p -> null);
        assertThat(unpriced.of(day)).isEqualTo(Cost.ZERO);
        assertThat(unpriced.currency()).isEmpty();
    }

    @Test
    void shouldGiveEachTenantItsShareOfTheFleetsUseAndShowATenantOnlyItsOwnRow() {
        book("bk-a", "team-a", "h200", 1, at(D1, "10:00:00"), at(D1, "11:00:00"));
        book("bk-b", "team-b", "h200-mig-3g.71gb", 1, at(D2, "10:00:00"), at(D2, "11:00:00"));
        Instant t = at(D1, "10:00:00");
        for (int i = 0; i <= 12; i++, t = t.plusSeconds(15)) { // 180 s busy
            inputs.apply(scrape("n1", "GPU-1", "h200", "team-a", t, 0.9));
        }
        t = at(D2, "10:00:00");
        for (int i = 0; i <= 4; i++, t = t.plusSeconds(15)) { // 60 s busy
            inputs.apply(scrape("n2", "GPU-2", "h200-mig-3g.71gb", "team-b", t, 0.9));
        }
        FairShare fairShare = new FairShare(priced(p -> List.of(eur("3.00", null))));

        Report all = fairShare.of(ledger(), NOVEMBER, x -> true);
        Report own = fairShare.of(ledger(), NOVEMBER, "team-b"::equals);

        // team-a 180 s = 0.05 GPU-h; team-b 60 s of a 1/2 slice = 0.008333: shares 0.05/0.058333, 0.008333/0.058333.
        assertThat(all.rows()).extracting(FairShare.Row::tenant).containsExactly("team-a", "team-b");
        assertThat(all.rows().get(0).used()).isEqualTo(0.05);
        assertThat(all.rows().get(0).usedShare()).isEqualByComparingTo("0.857148");
        assertThat(all.rows().get(1).usedShare()).isEqualByComparingTo("0.142852");
        assertThat(all.rows().get(1).booked()).isEqualTo(0.5);
        assertThat(all.rows().get(1).cost().booked()).isEqualByComparingTo("1.500000");
        assertThat(all.fleet().used()).isEqualTo(0.058333);
        assertThat(all.currency()).isEqualTo("EUR");
        assertThat(own.rows()).singleElement().satisfies(r -> {
            assertThat(r.tenant()).isEqualTo("team-b");
            assertThat(r.usedShare()).isEqualByComparingTo("0.142852");
            assertThat(r.budget()).as("no budgets yet").isNull();
            assertThat(r.budgetShare()).isNull();
        });
        assertThat(fairShare.of(ledger(), YearMonth.of(2026, 12), x -> true).rows())
                .isEmpty();
    }
}
