package io.gpuaas.booking.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.budget.TenantBudget;
import java.math.BigDecimal;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class BudgetViewTest {

    private static final Instant REQUEST = Instant.parse("2026-11-28T10:00:00Z");

    private static TenantBudget state(String booked, String held, boolean over, Instant at) {
        return new TenantBudget(
                "team-a",
                "2026-11",
                TenantBudget.Unit.GPU_HOURS,
                new BigDecimal("10"),
                null,
                new BigDecimal(booked),
                new BigDecimal(held),
                over,
                at);
    }

    /**
     * States written before the stage kept a clock per tenant carry the time of the record that changed them: the
     * pool's confirmation of an earlier request, read back after a newer request was refused, is older than the
     * refusal's state but comes later in the log, and it is the stage's latest word. A compacted topic keeps such
     * history, so the view must not trust the stamps.
     */
    @Test
    void shouldKeepTheLaterStateInTheLogEvenWhenItIsStampedEarlier() {
        BudgetView view = new BudgetView();
        view.upsert(state("0", "6", false, REQUEST));
        view.upsert(state("0", "6", true, REQUEST.plusSeconds(2)));
        view.upsert(state("6", "0", true, REQUEST.plusMillis(40)));

        assertThat(view.find("team-a", "2026-11"))
                .hasValueSatisfying(b -> assertThat(b.booked()).isEqualByComparingTo("6"));
        assertThat(view.month("2026-11")).hasSize(1);
    }

    /**
     * The stage's clock for a tenant stays put while it reads records older than its latest (an answer decided before
     * the request it follows), so several states of a month carry the same stamp: the later in the log still wins.
     */
    @Test
    void shouldKeepTheLaterStateInTheLogWhenStatesShareTheirStamp() {
        BudgetView view = new BudgetView();
        view.upsert(state("0", "6", false, REQUEST));
        view.upsert(state("6", "0", false, REQUEST));
        view.upsert(state("6", "4", true, REQUEST));
        view.upsert(state("10", "0", true, REQUEST));

        assertThat(view.find("team-a", "2026-11")).hasValueSatisfying(b -> {
            assertThat(b.booked()).isEqualByComparingTo("10");
            assertThat(b.held()).isEqualByComparingTo("0");
        });
    }
}
