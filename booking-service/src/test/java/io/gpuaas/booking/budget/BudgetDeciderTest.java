package io.gpuaas.booking.budget;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.booking.model.BookingPolicy;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingCommand;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.booking.Caller;
import io.gpuaas.events.budget.BudgetCommand;
import io.gpuaas.events.budget.BudgetCommand.BookingOutcome.Outcome;
import io.gpuaas.events.budget.TenantBudget;
import io.gpuaas.events.notice.Notice;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.events.pool.PoolPrice;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class BudgetDeciderTest {

    private static final Instant NOW = Instant.parse("2030-01-10T08:00:00Z");
    private static final Caller ALICE = new Caller("alice", "team-a", false);
    private static final Caller ADMIN = new Caller("root", "platform", true);
    private static final PoolCatalog POOLS = new PoolCatalog(List.of(
            new Pool("h200", "h200", "nvidia.com/gpu", 8, "NVIDIA H200", null)
                    .withPrices(List.of(new PoolPrice(new BigDecimal("2.5"), "EUR", null))),
            new Pool("mig", "mig", "nvidia.com/mig-1g.18gb", 14, "NVIDIA H200", "1g.18gb")));
    private final BudgetDecider decider = new BudgetDecider(POOLS, BookingPolicy.DEFAULT);

    @Test
    void shouldRefuseWithTheFiguresWhenBookedHeldAndNeededPassTheBudget() {
        TenantLedger ledger = set(null, TenantBudget.Unit.GPU_HOURS, "10");
        BudgetDecision first = decider.decide(hold(create("r1", "b1", 2, 3)), ledger, NOW);
        assertThat(first.refusal()).isNull();
        assertThat(first.forward()).isInstanceOf(BookingCommand.CreateBooking.class);
        assertThat(((BookingCommand.CreateBooking) first.forward()).budgetHold().in("2030-01"))
                .isEqualByComparingTo("6");
        assertThat(first.states()).singleElement().satisfies(s -> assertThat(s.held())
                .isEqualByComparingTo("6"));

        BudgetDecision second = decider.decide(hold(create("r2", "b2", 2, 3)), first.ledger(), NOW);

        assertThat(second.forward()).isNull();
        assertThat(second.refusal().reason()).isEqualTo("BUDGET_EXCEEDED");
        assertThat(second.refusal().budget().held()).isEqualByComparingTo("6");
        assertThat(second.refusal().budget().needed()).isEqualByComparingTo("6");
        assertThat(second.refusal().budget().limit()).isEqualByComparingTo("10");
        assertThat(second.states()).singleElement().satisfies(s -> assertThat(s.overBudget())
                .isTrue());
    }

    @Test
    void shouldTellEachThresholdOnceAndGiveBackWhatIsCancelled() {
        TenantLedger ledger = set(null, TenantBudget.Unit.GPU_HOURS, "10");
        ledger = decider.decide(hold(create("r1", "b1", 2, 3)), ledger, NOW).ledger();
        BudgetDecision booked =
                decider.decide(outcome("r1", booking("b1", 2, 3, BookingState.CONFIRMED, 1)), ledger, NOW);
        assertThat(booked.notices())
                .extracting(Notice.BudgetThresholdReached::percent)
                .containsExactly(50);
        BudgetDecision cancelled =
                decider.decide(outcome("c1", booking("b1", 2, 3, BookingState.CANCELLED, 2)), booked.ledger(), NOW);
        assertThat(cancelled.states()).singleElement().satisfies(s -> assertThat(s.booked())
                .isZero());
        TenantLedger again = decider.decide(hold(create("r3", "b3", 2, 3)), cancelled.ledger(), NOW)
                .ledger();
        BudgetDecision rebooked =
                decider.decide(outcome("r3", booking("b3", 2, 3, BookingState.CONFIRMED, 1)), again, NOW);
        assertThat(rebooked.notices()).as("50 %% was told already").isEmpty();
        TenantLedger more = decider.decide(hold(create("r4", "b4", 2, 2)), rebooked.ledger(), NOW)
                .ledger();
        BudgetDecision full = decider.decide(outcome("r4", booking("b4", 2, 2, BookingState.CONFIRMED, 1)), more, NOW);
        assertThat(full.notices())
                .extracting(Notice.BudgetThresholdReached::percent)
                .containsExactly(80, 100);
    }

    @Test
    void shouldWeighMigSlicesAndPriceCostBudgets() {
        TenantLedger cost = set(null, TenantBudget.Unit.COST, "20");
        BudgetDecision refused = decider.decide(hold(create("r1", "b1", 2, 5)), cost, NOW);
        assertThat(refused.refusal().budget().needed())
                .as("10 GPU-hours at 2.5")
                .isEqualByComparingTo("25");
        TenantLedger hours = set(null, TenantBudget.Unit.GPU_HOURS, "1");
        BookingCommand.CreateBooking slices = new BookingCommand.CreateBooking(
                "r2", null, ALICE, "mig", "b2", "team-a", 7, NOW.plusSeconds(3600), NOW.plusSeconds(7200), null, NOW);
        assertThat(decider.decide(hold(slices), hours, NOW).refusal())
                .as("seven 1g.18gb slices for an hour are one GPU-hour")
                .isNull();
    }

    private TenantLedger set(TenantLedger ledger, TenantBudget.Unit unit, String limit) {
        return decider.decide(
                        new BudgetCommand.SetBudget(
                                "set",
                                ADMIN,
                                "team-a",
                                "2030-01",
                                unit,
                                new BigDecimal(limit),
                                unit == TenantBudget.Unit.COST ? "EUR" : null,
                                NOW),
                        ledger,
                        NOW)
                .ledger();
    }

    private static BudgetCommand.HoldCreate hold(BookingCommand.CreateBooking create) {
        return new BudgetCommand.HoldCreate("team-a", create);
    }

    private static BookingCommand.CreateBooking create(String request, String id, int quantity, int hours) {
        Instant start = NOW.plus(Duration.ofHours(2));
        return new BookingCommand.CreateBooking(
                request,
                null,
                ALICE,
                "h200",
                id,
                "team-a",
                quantity,
                start,
                start.plus(Duration.ofHours(hours)),
                null,
                NOW);
    }

    private static Booking booking(String id, int quantity, int hours, BookingState state, long version) {
        Instant start = NOW.plus(Duration.ofHours(2));
        return new Booking(
                id,
                "team-a",
                "team-a",
                "h200",
                "h200",
                "nvidia.com/gpu",
                quantity,
                start,
                start.plus(Duration.ofHours(hours)),
                null,
                state,
                "alice",
                NOW,
                NOW,
                version,
                null);
    }

    private static BudgetCommand.BookingOutcome outcome(String requestId, Booking booking) {
        return new BudgetCommand.BookingOutcome(
                "team-a", requestId, booking.id(), Outcome.DECIDED, List.of(booking), NOW);
    }
}
