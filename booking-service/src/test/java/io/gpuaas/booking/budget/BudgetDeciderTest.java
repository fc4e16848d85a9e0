package io.gpuaas.booking.budget;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.booking.model.BookingDecider;
import io.gpuaas.booking.model.BookingLedger;
import io.gpuaas.booking.model.BookingPolicy;
import io.gpuaas.booking.model.Decision;
import io.gpuaas.booking.model.InMemoryBookingRepository;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingCommand;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.booking.Caller;
import io.gpuaas.events.budget.BudgetCommand;
import io.gpuaas.events.budget.BudgetCommand.BookingOutcome.Outcome;
import io.gpuaas.events.budget.BudgetHold;
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

    @Test
    void shouldHoldWhatAWaitingRequestCanTakeInEveryMonthItsStartRangeReaches() {
        Instant now = Instant.parse("2030-01-31T12:00:00Z");
        TenantLedger ledger = set(null, "2030-02", TenantBudget.Unit.GPU_HOURS, "5", now);
        Instant start = Instant.parse("2030-01-31T20:00:00Z");
        BookingCommand.CreateBooking waits =
                waiting("r1", "b1", start, Duration.ofHours(4), start.plusSeconds(6 * 3600));

        BudgetDecision refused = decider.decide(hold(waits), ledger, now);

        assertThat(refused.forward())
                .as("its asked window is all January, but the waitlist may book it as late as 02:00 on February 1st")
                .isNull();
        assertThat(refused.refusal().budget().month()).isEqualTo("2030-02");
        assertThat(refused.refusal().budget().needed())
                .as("2 GPUs for 4 h and the quarter a book-now's aligned end may add, all in February")
                .isEqualByComparingTo("8.5");

        TenantLedger roomy = set(null, "2030-02", TenantBudget.Unit.GPU_HOURS, "9", now);
        BudgetDecision passed = decider.decide(hold(waits), roomy, now);
        BudgetHold carried = ((BookingCommand.CreateBooking) passed.forward()).budgetHold();
        assertThat(carried.in("2030-02")).isEqualByComparingTo("8.5");
        assertThat(carried.in("2030-01"))
                .as("the most January can get: from 20:00 to midnight")
                .isEqualByComparingTo("8");
    }

    @Test
    void shouldAnswerARetryOfAConfirmedCreateAsTheFirstAttemptWasAnsweredAtTheLimit() {
        BookingDecider pool = new BookingDecider(POOLS, BookingPolicy.DEFAULT);
        BookingLedger poolLedger = new BookingLedger(new InMemoryBookingRepository(), POOLS);
        TenantLedger ledger = set(null, TenantBudget.Unit.GPU_HOURS, "6");
        BookingCommand.CreateBooking first = keyed(create("r1", "b1", 2, 3), "key-1");
        BudgetDecision passed = decider.decide(hold(first), ledger, NOW);
        Decision confirmed = pool.decide(passed.forward(), poolLedger, NOW);
        poolLedger.apply(confirmed);
        BookingEvent.BookingConfirmed answer =
                (BookingEvent.BookingConfirmed) confirmed.events().getFirst();
        TenantLedger atLimit = decider.decide(
                        BudgetOutcomes.of(answer).orElseThrow(), passed.ledger(), NOW.plusSeconds(1))
                .ledger();
        assertThat(atLimit.booked("2030-01").gpuHours()).isEqualByComparingTo("6");

        BookingCommand.CreateBooking retry = keyed(create("r2", "b2", 2, 3), "key-1");
        BudgetDecision again = decider.decide(hold(retry), atLimit, NOW.plusSeconds(2));

        assertThat(again.refusal()).as("the first attempt was confirmed").isNull();
        assertThat(again.ledger().held("2030-01").gpuHours())
                .as("nothing held twice")
                .isEqualByComparingTo("0");
        Decision replayed = pool.decide(again.forward(), poolLedger, NOW.plusSeconds(2));
        assertThat(replayed.events()).singleElement().isInstanceOfSatisfying(BookingEvent.BookingConfirmed.class, c -> {
            assertThat(c.requestId()).isEqualTo("r2");
            assertThat(c.booking().id()).isEqualTo("b1");
        });
        BudgetDecision other = decider.decide(hold(keyed(create("r3", "b3", 2, 3), "key-2")), atLimit, NOW);
        assertThat(other.refusal().reason()).as("a new key is a new request").isEqualTo("BUDGET_EXCEEDED");
    }

    @Test
    void shouldNotCountACancelledBookingAgainWhenARetrysReplayedAnswerCarriesItAsFirstConfirmed() {
        TenantLedger ledger = set(null, TenantBudget.Unit.GPU_HOURS, "10");
        ledger = decider.decide(outcome("r1", booking("b1", 2, 3, BookingState.CONFIRMED, 1)), ledger, NOW)
                .ledger();
        ledger = decider.decide(outcome("c1", booking("b1", 2, 3, BookingState.CANCELLED, 2)), ledger, NOW)
                .ledger();

        BudgetDecision replayed =
                decider.decide(outcome("r2", booking("b1", 2, 3, BookingState.CONFIRMED, 1)), ledger, NOW);

        assertThat(replayed.ledger().booked("2030-01").gpuHours()).isEqualByComparingTo("0");
    }

    @Test
    void shouldRefuseARetryOfARefusedCreateWithTheFirstFiguresEvenAfterRoomWasGivenBack() {
        TenantLedger ledger = set(null, TenantBudget.Unit.GPU_HOURS, "4");
        BudgetDecision refused = decider.decide(hold(keyed(create("r1", "b1", 2, 3), "key-1")), ledger, NOW);
        assertThat(refused.refusal()).isNotNull();
        TenantLedger raised = set(refused.ledger(), TenantBudget.Unit.GPU_HOURS, "10");

        BudgetDecision again = decider.decide(hold(keyed(create("r2", "b2", 2, 3), "key-1")), raised, NOW);

        assertThat(again.forward()).isNull();
        assertThat(again.refusal().requestId()).isEqualTo("r2");
        assertThat(again.refusal().bookingId()).isEqualTo("b1");
        assertThat(again.refusal().budget()).isEqualTo(refused.refusal().budget());
        assertThat(decider.decide(hold(keyed(create("r3", "b3", 2, 3), "key-1")), raised, NOW.plus(Duration.ofDays(8)))
                        .forward())
                .as("after the key's retention it is a new request")
                .isNotNull();
    }

    @Test
    void shouldForgetMonthsThatCanNoLongerChangeAndNotCountThemAgain() {
        TenantLedger ledger = set(null, TenantBudget.Unit.GPU_HOURS, "10");
        ledger = set(ledger, "2030-02", TenantBudget.Unit.GPU_HOURS, "10", NOW);
        ledger = decider.decide(hold(create("r1", "b1", 2, 3)), ledger, NOW).ledger();
        ledger = decider.decide(outcome("r1", booking("b1", 2, 3, BookingState.CONFIRMED, 1)), ledger, NOW)
                .ledger();
        assertThat(ledger.told()).containsKey("2030-01");

        Instant march = Instant.parse("2030-03-01T00:00:00Z");
        TenantLedger pruned = set(ledger, "2030-03", TenantBudget.Unit.GPU_HOURS, "10", march);

        assertThat(pruned.budgets()).containsOnlyKeys("2030-02", "2030-03");
        assertThat(pruned.bookings()).as("b1 counted only in January").isEmpty();
        assertThat(pruned.told()).doesNotContainKey("2030-01");
        BudgetDecision late =
                decider.decide(outcome(null, booking("b1", 2, 3, BookingState.ACTIVE, 2)), pruned, NOW.plusSeconds(60));
        assertThat(late.ledger().bookings())
                .as("a late word on a closed month is not counted")
                .isEmpty();
        assertThat(late.states()).isEmpty();
        assertThat(decider.decide(hold(create("r2", "b2", 1, 1)), pruned, march).ledger())
                .as("the same on every replay")
                .isEqualTo(decider.decide(hold(create("r2", "b2", 1, 1)), pruned, march)
                        .ledger());
        BudgetDecision closed = decider.decide(
                new BudgetCommand.SetBudget(
                        "s", ADMIN, "team-a", "2030-01", TenantBudget.Unit.GPU_HOURS, BigDecimal.ONE, null, march),
                pruned,
                march);
        assertThat(closed.states()).as("a closed month's budget is not set").isEmpty();
        assertThat(closed.ledger().budgets()).doesNotContainKey("2030-01");
    }

    @Test
    void shouldNeverStampAMonthEarlierThanItsPreviousState() {
        Instant later = NOW.plusSeconds(3600);
        TenantLedger ledger = set(null, "2030-01", TenantBudget.Unit.GPU_HOURS, "10", later);
        BudgetDecision held = decider.decide(hold(create("r1", "b1", 2, 3)), ledger, later);
        assertThat(held.states()).singleElement().satisfies(s -> assertThat(s.updatedAt())
                .isEqualTo(later));

        BudgetDecision answered = decider.decide(
                outcome("r1", booking("b1", 2, 3, BookingState.CONFIRMED, 1)), held.ledger(), NOW.plusSeconds(5));

        assertThat(answered.states())
                .as("the pool's answer carries the older time of its decision")
                .singleElement()
                .satisfies(s -> assertThat(s.updatedAt()).isEqualTo(later));
    }

    private static BookingCommand.CreateBooking keyed(BookingCommand.CreateBooking c, String key) {
        return new BookingCommand.CreateBooking(
                c.requestId(),
                key,
                c.caller(),
                c.pool(),
                c.bookingId(),
                c.namespace(),
                c.quantity(),
                c.start(),
                c.end(),
                c.purpose(),
                c.requestedAt());
    }

    private static BookingCommand.CreateBooking waiting(
            String request, String id, Instant start, Duration length, Instant latestStart) {
        return new BookingCommand.CreateBooking(
                request,
                null,
                ALICE,
                "h200",
                id,
                "team-a",
                2,
                start,
                null,
                null,
                start,
                null,
                length,
                null,
                latestStart);
    }

    private TenantLedger set(TenantLedger ledger, TenantBudget.Unit unit, String limit) {
        return set(ledger, "2030-01", unit, limit, NOW);
    }

    private TenantLedger set(TenantLedger ledger, String month, TenantBudget.Unit unit, String limit, Instant at) {
        return decider.decide(
                        new BudgetCommand.SetBudget(
                                "set",
                                ADMIN,
                                "team-a",
                                month,
                                unit,
                                new BigDecimal(limit),
                                unit == TenantBudget.Unit.COST ? "EUR" : null,
                                at),
                        ledger,
                        at)
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
