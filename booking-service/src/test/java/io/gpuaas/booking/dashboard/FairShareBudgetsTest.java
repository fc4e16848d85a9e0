package io.gpuaas.booking.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpuaas.events.budget.TenantBudget;
import io.gpuaas.events.budget.TenantBudget.Unit;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The fair-share report's budget columns: joined per tenant, shares within a unit, zero rows, CSV, scoping. */
class FairShareBudgetsTest {

    private static final String REPORT = "{\"month\":\"2026-11\",\"unit\":\"GPU-hours\",\"currency\":\"EUR\","
            + "\"fleet\":{\"booked\":13.5,\"used\":7.1875,\"idle\":3.75},\"rows\":["
            + "{\"tenant\":\"team-a\",\"booked\":11.5,\"used\":5.75,\"idle\":3.25,\"bookedCost\":40.25,"
            + "\"usedCost\":20.125,\"idleCost\":11.375,\"usedShare\":0.8},"
            + "{\"tenant\":\"team-b\",\"booked\":2.0,\"used\":1.4375,\"idle\":0.5,\"bookedCost\":7.0,"
            + "\"usedCost\":5.03125,\"idleCost\":1.75,\"usedShare\":0.2}]}";

    private static TenantBudget hours(String tenant, String limit, String booked, String held) {
        return new TenantBudget(
                tenant,
                "2026-11",
                Unit.GPU_HOURS,
                new BigDecimal(limit),
                null,
                new BigDecimal(booked),
                new BigDecimal(held),
                false,
                Instant.parse("2026-11-02T10:00:00Z"));
    }

    private static TenantBudget cost(String tenant, String limit) {
        return new TenantBudget(
                tenant,
                "2026-11",
                Unit.COST,
                new BigDecimal(limit),
                "EUR",
                BigDecimal.ONE,
                BigDecimal.ZERO,
                true,
                Instant.parse("2026-11-02T10:00:00Z"));
    }

    private static JsonNode row(JsonNode report, String tenant) {
        for (JsonNode row : report.path("rows")) {
            if (row.path("tenant").asText().equals(tenant)) {
                return row;
            }
        }
        throw new AssertionError("no row of " + tenant + " in " + report);
    }

    @Test
    void shouldJoinEachTenantsBudgetAndItsShareOfTheBudgetsInTheSameUnit() {
        List<TenantBudget> budgets =
                List.of(hours("team-a", "30", "11.5", "2.25"), hours("team-b", "10", "2", "0"), cost("team-c", "500"));

        ObjectNode joined = FairShareBudgets.join(FairShareBudgets.parse(REPORT), budgets, t -> true);

        JsonNode a = row(joined, "team-a");
        assertThat(a.path("used").decimalValue()).isEqualByComparingTo("5.75");
        assertThat(a.path("usedShare").decimalValue()).isEqualByComparingTo("0.8");
        assertThat(a.path("budget").path("unit").asText()).isEqualTo("GPU_HOURS");
        assertThat(a.path("budget").path("limit").decimalValue()).isEqualByComparingTo("30");
        assertThat(a.path("budget").path("booked").decimalValue()).isEqualByComparingTo("11.5");
        assertThat(a.path("budget").path("held").decimalValue()).isEqualByComparingTo("2.25");
        assertThat(a.path("budget").path("currency").isNull()).isTrue();
        assertThat(a.path("budgetShare").decimalValue()).isEqualByComparingTo("0.75");
        assertThat(row(joined, "team-b").path("budgetShare").decimalValue()).isEqualByComparingTo("0.25");

        JsonNode c = row(joined, "team-c");
        assertThat(c.path("budgetShare").decimalValue())
                .as("a cost budget is the only one of its unit")
                .isEqualByComparingTo("1");
        assertThat(c.path("used").decimalValue())
                .as("no use yet: a row of zeros")
                .isZero();
        assertThat(c.path("usedShare").decimalValue()).isZero();
        assertThat(joined.path("rows"))
                .extracting(r -> r.path("tenant").asText())
                .containsExactly("team-a", "team-b", "team-c");
        assertThat(joined.path("fleet").path("budgets")).hasSize(2);
        assertThat(joined.path("fleet").path("budgets").get(0).path("limit").decimalValue())
                .isEqualByComparingTo("500");
        assertThat(joined.path("fleet").path("budgets").get(1).path("limit").decimalValue())
                .isEqualByComparingTo("40");
    }

    @Test
    void shouldShowATenantOnlyItsOwnBudgetButItsShareOfEveryonesBudgets() {
        String own = REPORT.replaceFirst(",\\{\"tenant\":\"team-b\"[^}]*}", "");
        List<TenantBudget> budgets = List.of(hours("team-a", "30", "0", "0"), hours("team-b", "10", "0", "0"));

        ObjectNode joined = FairShareBudgets.join(FairShareBudgets.parse(own), budgets, "team-a"::equals);

        assertThat(joined.path("rows")).hasSize(1);
        assertThat(row(joined, "team-a").path("budgetShare").decimalValue()).isEqualByComparingTo("0.75");
        assertThat(FairShareBudgets.write(joined)).doesNotContain("team-b");
    }

    @Test
    void shouldLeaveTheBudgetColumnsEmptyWithoutABudgetAndFillThemInTheCsv() {
        ObjectNode joined = FairShareBudgets.join(
                FairShareBudgets.parse(REPORT), List.of(hours("team-b", "8", "2", "0.5")), t -> true);

        assertThat(row(joined, "team-a").has("budget")).isFalse();
        assertThat(FairShareBudgets.csv(joined))
                .isEqualTo(FairShareBudgets.CSV_HEADER + "\r\n"
                        + "team-a,2026-11,11.500000,5.750000,3.250000,40.250000,20.125000,11.375000,EUR,0.800000,"
                        + ",,,,,\r\n"
                        + "team-b,2026-11,2.000000,1.437500,0.500000,7.000000,5.031250,1.750000,EUR,0.200000,"
                        + "8.000000,1.000000,GPU_HOURS,,2.000000,0.500000\r\n");
    }

    @Test
    void shouldPassTheReportThroughToTheDigitWhenThereAreNoBudgets() {
        String joined =
                FairShareBudgets.write(FairShareBudgets.join(FairShareBudgets.parse(REPORT), List.of(), t -> true));

        assertThat(joined).contains("\"usedCost\":5.03125").contains("\"usedShare\":0.8");
        assertThat(FairShareBudgets.parse(joined).path("fleet").path("budgets")).isEmpty();
    }
}
