package io.gpuaas.bench.booking;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The budget replay's timeline and budget rule, without a broker. */
class BudgetReplayTest {

    private static final long DAY = 86_400;
    private static final Instant BASE =
            YearMonth.now(ZoneOffset.UTC).plusMonths(1).atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC);

    private static NoShowReplay.Pod pod(String name, int gpus, String pool, long created, long deleted) {
        return new NoShowReplay.Pod(name, gpus, pool, created, deleted, false);
    }

    @Test
    void shouldBookEachPodAheadFromTheNextMonthWhenItWasCreatedFromDayHundredOn() {
        List<NoShowReplay.Pod> pods = List.of(
                pod("early", 1, "h200", 99 * DAY, 101 * DAY),
                pod("a", 2, "h200", 100 * DAY + 100, 100 * DAY + 4000),
                pod("b", 3, "h200-mig-1g.18gb", 101 * DAY, 101 * DAY + 7 * 3600));

        List<BudgetReplay.Request> requests = BudgetReplay.requests(pods, 1, BASE);

        assertThat(requests).hasSize(2);
        BudgetReplay.Request a = requests.getFirst();
        // aligned outwards to 15 min: [0, 4000 s) → [0, 4500 s)
        assertThat(a.create().start()).isEqualTo(BASE);
        assertThat(a.create().end()).isEqualTo(BASE.plusSeconds(4500));
        assertThat(a.tenant()).isEqualTo(OpenbReplay.tenantOf("a"));
        assertThat(a.gpuHours()).isEqualTo(2.5);
        // three 1g slices (1/7 of a GPU each) for 7 h: 3 GPU-hours, as the stage measures them
        BudgetReplay.Request b = requests.get(1);
        assertThat(b.needs())
                .containsExactly(Map.entry(
                        YearMonth.from(BASE.atOffset(ZoneOffset.UTC)).toString(), new BigDecimal("3.000000")));
    }

    @Test
    void shouldReplayEveryKthPodWhenAskedForASmallRun() {
        List<NoShowReplay.Pod> pods = List.of(
                pod("p0", 1, "h200", 100 * DAY, 100 * DAY + 900),
                pod("p1", 1, "h200", 100 * DAY + 900, 100 * DAY + 1800),
                pod("p2", 1, "h200", 100 * DAY + 1800, 100 * DAY + 2700),
                pod("p3", 1, "h200", 100 * DAY + 2700, 100 * DAY + 3600));

        assertThat(BudgetReplay.requests(pods, 2, BASE))
                .extracting(r -> r.create().caller().subject())
                .containsExactly("p0", "p2");
    }

    @Test
    void shouldGiveEachTenantItsShareOfItsOwnDemandRoundedDownWhenSettingBudgets() {
        Map<String, BigDecimal> limits = BudgetReplay.limits(Map.of(
                "tenant-0/2026-12", new BigDecimal("10.000001"),
                "tenant-5/2026-12", new BigDecimal("10.000001"),
                "tenant-10/2027-01", new BigDecimal("7"),
                "tenant-15/2027-01", new BigDecimal("7")));

        assertThat(limits)
                .containsEntry("tenant-0/2026-12", new BigDecimal("5.000000"))
                .containsEntry("tenant-5/2026-12", new BigDecimal("8.000000"))
                .containsEntry("tenant-10/2027-01", new BigDecimal("7.000000"))
                .containsEntry("tenant-15/2027-01", new BigDecimal("8.400000"));
    }

    @Test
    void shouldSumEveryRequestOfATenantPerMonthWhenMeasuringDemand() {
        List<NoShowReplay.Pod> pods = List.of(
                pod("x", 1, "h200", 100 * DAY, 100 * DAY + 3600),
                pod("x", 1, "h200", 100 * DAY + 3600, 100 * DAY + 7200));

        Map<String, BigDecimal> demand = BudgetReplay.demand(BudgetReplay.requests(pods, 1, BASE));

        assertThat(demand)
                .containsExactly(Map.entry(
                        OpenbReplay.tenantOf("x") + "/" + YearMonth.from(BASE.atOffset(ZoneOffset.UTC)),
                        new BigDecimal("2.000000")));
    }
}
