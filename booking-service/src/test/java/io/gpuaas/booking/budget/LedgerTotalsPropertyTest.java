package io.gpuaas.booking.budget;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.booking.budget.TenantLedger.Hold;
import io.gpuaas.booking.model.BookingPolicy;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingCommand;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.booking.Caller;
import io.gpuaas.events.budget.BudgetCommand;
import io.gpuaas.events.budget.BudgetCommand.BookingOutcome.Outcome;
import io.gpuaas.events.budget.TenantBudget;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.events.pool.PoolPrice;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;

/**
 * The stage's running totals against the items they sum: random sequences of one tenant's budgets, creates (some
 * waiting, some retried under a key), changes, answers, waits, ends and later booking states (some stale), the clock
 * running across several months (so closed months are swept) and sometimes a record older than the clock. Each command
 * is decided twice: over one {@link MemoryLedger} kept from the start (totals only ever changed by deltas) and over the
 * {@link TenantLedger} of the step before (totals summed afresh from its items). After every step both give the same
 * decision and the same items, and in every open month the kept totals equal the sums over the items, to the last
 * decimal; closed months have no totals and no item counts in them after a sweep.
 */
class LedgerTotalsPropertyTest {

    private static final Instant T0 = Instant.parse("2030-01-20T00:00:00Z");
    private static final Caller ALICE = new Caller("alice", "team-a", false);
    private static final Caller ADMIN = new Caller("root", "platform", true);
    private static final PoolCatalog POOLS =
            new PoolCatalog(List.of(new Pool("h200", "h200", "nvidia.com/gpu", 8, "NVIDIA H200", null)
                    .withPrices(List.of(new PoolPrice(new BigDecimal("2.5"), "EUR", null)))));
    private static final List<BookingState> LATER_STATES = List.of(
            BookingState.CONFIRMED,
            BookingState.ACTIVE,
            BookingState.CANCELLED,
            BookingState.RELEASED,
            BookingState.PENDING_APPROVAL,
            BookingState.DENIED);

    @RepeatedTest(30)
    void totalsEqualTheSumsOverTheItemsAfterAnySequence(RepetitionInfo info) {
        Random random = new Random(info.getCurrentRepetition() * 7_919L);
        BudgetDecider decider = new BudgetDecider(POOLS, BookingPolicy.DEFAULT, Duration.ofDays(3));
        MemoryLedger kept = MemoryLedger.empty("team-a");
        TenantLedger whole = null;
        Map<String, Long> versions = new HashMap<>();
        Map<String, Instant[]> windows = new HashMap<>();
        Instant clock = T0;
        int sweeps = 0;
        for (int step = 0; step < 250; step++) {
            clock = clock.plus(Duration.ofMinutes(random.nextInt(random.nextInt(10) == 0 ? 7 * 24 * 60 : 12 * 60)));
            Instant now = random.nextInt(8) == 0 ? clock.minus(Duration.ofHours(random.nextInt(48))) : clock;
            BudgetCommand command = command(random, step, now, kept, versions, windows);
            String openBefore = kept.summary().openFrom();

            BudgetDecision viaItems = decider.decide(command, kept, now);
            BudgetDecision viaWhole = decider.decide(command, whole, now);
            whole = viaWhole.ledger();
            if (!openBefore.equals(kept.summary().openFrom())) {
                sweeps++;
            }

            assertThat(viaItems.forward()).as("step %d forward", step).isEqualTo(viaWhole.forward());
            assertThat(viaItems.refusal()).as("step %d refusal", step).isEqualTo(viaWhole.refusal());
            assertThat(viaItems.states()).as("step %d states", step).isEqualTo(viaWhole.states());
            assertThat(viaItems.notices()).as("step %d notices", step).isEqualTo(viaWhole.notices());
            assertThat(kept.toLedger()).as("step %d items", step).isEqualTo(whole);
            assertTotals(kept, step);
        }
        assertThat(sweeps).as("the clock entered new months").isGreaterThanOrEqualTo(2);
    }

    private static void assertTotals(MemoryLedger ledger, int step) {
        TenantSummary summary = ledger.summary();
        YearMonth first = YearMonth.from(T0.atZone(java.time.ZoneOffset.UTC)).minusMonths(2);
        for (int i = 0; i < 12; i++) {
            String month = first.plusMonths(i).toString();
            if (summary.closed(month)) {
                assertThat(summary.booked())
                        .as("step %d: closed %s has no totals", step, month)
                        .doesNotContainKey(month);
                assertThat(summary.held())
                        .as("step %d: closed %s has no totals", step, month)
                        .doesNotContainKey(month);
                continue;
            }
            assertThat(summary.booked(month).gpuHours())
                    .as("step %d booked GPU-hours %s", step, month)
                    .isEqualByComparingTo(ledger.sum(month, true).gpuHours());
            assertThat(summary.booked(month).cost())
                    .as("step %d booked cost %s", step, month)
                    .isEqualByComparingTo(ledger.sum(month, true).cost());
            assertThat(summary.held(month).gpuHours())
                    .as("step %d held GPU-hours %s", step, month)
                    .isEqualByComparingTo(ledger.sum(month, false).gpuHours());
            assertThat(summary.held(month).cost())
                    .as("step %d held cost %s", step, month)
                    .isEqualByComparingTo(ledger.sum(month, false).cost());
        }
        ledger.holds().forEach((id, hold) -> {
            if (hold.waiting()) {
                assertThat(summary.waiting().get(hold.bookingId()))
                        .as("step %d: waiting hold %s indexed", step, id)
                        .contains(id);
            }
        });
        summary.waiting()
                .forEach((bookingId, ids) ->
                        ids.forEach(id -> assertThat(ledger.holds().get(id))
                                .as("step %d: indexed %s is a waiting hold", step, id)
                                .isNotNull()
                                .matches(Hold::waiting)));
    }

    private static BudgetCommand command(
            Random random,
            int step,
            Instant now,
            MemoryLedger ledger,
            Map<String, Long> versions,
            Map<String, Instant[]> windows) {
        String bookingId = "b" + random.nextInt(15);
        List<String> pending = new ArrayList<>(ledger.holds().keySet());
        return switch (random.nextInt(10)) {
            case 0 -> {
                String month = YearMonth.from(now.atZone(java.time.ZoneOffset.UTC))
                        .plusMonths(random.nextInt(3) - 1)
                        .toString();
                TenantBudget.Unit unit = random.nextBoolean() ? TenantBudget.Unit.GPU_HOURS : TenantBudget.Unit.COST;
                yield new BudgetCommand.SetBudget(
                        "set-" + step,
                        ADMIN,
                        "team-a",
                        month,
                        unit,
                        BigDecimal.valueOf(50 + random.nextInt(400)),
                        unit == TenantBudget.Unit.COST ? "EUR" : null,
                        now);
            }
            case 1, 2, 3 -> {
                Instant start = now.plus(Duration.ofHours(random.nextInt(40 * 24)));
                Duration length = Duration.ofHours(1 + random.nextInt(72));
                windows.put(bookingId, new Instant[] {start, start.plus(length)});
                String key = random.nextInt(4) == 0 ? "key-" + random.nextInt(3) : null;
                BookingCommand.CreateBooking create = random.nextInt(4) == 0
                        ? new BookingCommand.CreateBooking(
                                "r" + step,
                                key,
                                ALICE,
                                "h200",
                                bookingId,
                                "team-a",
                                1 + random.nextInt(3),
                                start,
                                null,
                                null,
                                now,
                                null,
                                length,
                                null,
                                start.plus(Duration.ofHours(random.nextInt(96))))
                        : new BookingCommand.CreateBooking(
                                "r" + step,
                                key,
                                ALICE,
                                "h200",
                                bookingId,
                                "team-a",
                                1 + random.nextInt(3),
                                start,
                                start.plus(length),
                                null,
                                now);
                yield new BudgetCommand.HoldCreate("team-a", create);
            }
            case 4 -> {
                Instant start = now.plus(Duration.ofHours(random.nextInt(30 * 24)));
                yield new BudgetCommand.HoldChange(
                        "team-a",
                        new BookingCommand.ChangeBooking(
                                "r" + step,
                                null,
                                ALICE,
                                "h200",
                                bookingId,
                                start,
                                start.plus(Duration.ofHours(1 + random.nextInt(96))),
                                now,
                                null,
                                null));
            }
            case 5, 6 -> {
                // The answer to a pending request (or to an unknown one): booked, pending approval, refused, waiting.
                String requestId = pending.isEmpty() || random.nextInt(5) == 0
                        ? "r-unknown"
                        : pending.get(random.nextInt(pending.size()));
                Hold hold = ledger.holds().get(requestId);
                String id = hold == null ? bookingId : hold.bookingId();
                int kind = random.nextInt(4);
                if (kind == 0) {
                    yield new BudgetCommand.BookingOutcome("team-a", requestId, id, Outcome.WAITING, List.of(), now);
                }
                List<Booking> bookings = kind == 1
                        ? List.of()
                        : List.of(booking(
                                random,
                                id,
                                kind == 2 ? BookingState.CONFIRMED : BookingState.PENDING_APPROVAL,
                                versions,
                                windows,
                                now));
                yield new BudgetCommand.BookingOutcome("team-a", requestId, id, Outcome.DECIDED, bookings, now);
            }
            case 7 -> new BudgetCommand.BookingOutcome("team-a", null, bookingId, Outcome.ENDED, List.of(), now);
            default ->
                // A later state of a booking, from the engine (no request id); sometimes an older version.
                new BudgetCommand.BookingOutcome(
                        "team-a",
                        null,
                        bookingId,
                        Outcome.DECIDED,
                        List.of(booking(
                                random,
                                bookingId,
                                LATER_STATES.get(random.nextInt(LATER_STATES.size())),
                                versions,
                                windows,
                                now)),
                        now);
        };
    }

    private static Booking booking(
            Random random,
            String id,
            BookingState state,
            Map<String, Long> versions,
            Map<String, Instant[]> windows,
            Instant now) {
        long version = versions.merge(id, 1L, Long::sum);
        if (random.nextInt(6) == 0 && version > 2) {
            version -= 2; // a stale state read late
        }
        Instant[] window = windows.getOrDefault(id, new Instant[] {now, now.plus(Duration.ofHours(3))});
        return new Booking(
                id,
                "team-a",
                "team-a",
                "h200",
                "h200",
                "nvidia.com/gpu",
                1 + random.nextInt(3),
                window[0],
                window[1],
                null,
                state,
                "alice",
                now,
                now,
                version,
                null);
    }
}
