package io.gpuaas.booking.budget;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.booking.budget.BudgetMeasure.Amount;
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
import io.gpuaas.events.budget.TenantBudget;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.events.pool.PoolPrice;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;

/**
 * The whole saga on random interleavings: tenants' creates (windows and book-nows across the January/February
 * boundary, whole GPUs and MIG slices; some waiting for room until a latest start that may lie in the next month, which
 * the engine books at whatever start fits; some retried under their idempotency key), changes, cancels and releases; the budget stage and two pools' deciders each
 * take their next record in a random order, the outcomes flow back keyed by tenant, the clock runs between steps. After
 * every step, what each tenant's confirmed bookings count in a budgeted month (measured from the pools' own ledger)
 * is within its budget; once every queue is drained, the stage's figures equal that measure.
 */
class BudgetPropertyTest {

    private static final Instant T0 = Instant.parse("2030-01-31T18:00:00Z");
    private static final Caller TEAM_A = new Caller("alice", "team-a", false);
    private static final Caller TEAM_B = new Caller("bob", "team-b", false);
    private static final Caller ADMIN = new Caller("root", "platform", true);
    private static final List<PoolPrice> PRICES = List.of(
            new PoolPrice(new BigDecimal("3.5"), "EUR", null),
            new PoolPrice(new BigDecimal("4.25"), "EUR", LocalDate.parse("2030-02-01")));
    private static final PoolCatalog POOLS = new PoolCatalog(List.of(
            new Pool("h200", "h200", "nvidia.com/gpu", 8, "NVIDIA H200", null).withPrices(PRICES),
            new Pool("h200-mig-2g.35gb", "h200-mig-2g.35gb", "nvidia.com/mig-2g.35gb", 9, "NVIDIA H200", "2g.35gb")
                    .withPrices(PRICES)));
    private static final List<String> MONTHS = List.of("2030-01", "2030-02");

    @RepeatedTest(40)
    void confirmedAmountNeverExceedsTheBudgetWhateverTheOrder(RepetitionInfo info) {
        Random random = new Random(info.getCurrentRepetition() * 104_729L);
        BookingPolicy policy = BookingPolicy.DEFAULT;
        BudgetDecider stage = new BudgetDecider(POOLS, policy);
        BookingDecider pools = new BookingDecider(POOLS, policy);
        InMemoryBookingRepository repository = new InMemoryBookingRepository();
        BookingLedger ledger = new BookingLedger(repository, POOLS);
        Map<String, TenantLedger> tenants = new HashMap<>();
        Map<String, Deque<BudgetCommand>> stageQueues = new TreeMap<>();
        Map<String, Deque<BookingCommand>> poolQueues = new TreeMap<>();
        Map<String, TenantBudget.Unit> units =
                Map.of("team-a", TenantBudget.Unit.GPU_HOURS, "team-b", TenantBudget.Unit.COST);
        Map<String, BigDecimal> limits = new HashMap<>();
        Instant now = T0;
        for (String tenant : units.keySet()) {
            for (String month : MONTHS) {
                BigDecimal limit = BigDecimal.valueOf(units.get(tenant) == TenantBudget.Unit.COST ? 150 : 30)
                        .multiply(BigDecimal.valueOf(1 + random.nextInt(3)));
                limits.put(tenant + "/" + month, limit);
                stageQueues
                        .computeIfAbsent(tenant, t -> new ArrayDeque<>())
                        .add(new BudgetCommand.SetBudget(
                                "set-" + tenant + month,
                                ADMIN,
                                tenant,
                                month,
                                units.get(tenant),
                                limit,
                                units.get(tenant) == TenantBudget.Unit.COST ? "EUR" : null,
                                now));
            }
        }
        List<Booking> known = new ArrayList<>();
        List<BudgetCommand.HoldCreate> sent = new ArrayList<>();
        int requests = 0;
        int[] refusals = new int[1];
        for (int step = 0; step < 1500; step++) {
            now = now.plusMillis(random.nextInt(90_000));
            int what = random.nextInt(10);
            if (what < 3 && requests < 300) {
                requests++;
                Caller caller = random.nextBoolean() ? TEAM_A : TEAM_B;
                BudgetCommand request = !sent.isEmpty() && random.nextInt(6) == 0
                        ? retry(sent.get(random.nextInt(sent.size())), random)
                        : randomRequest(random, caller, known, now);
                if (request instanceof BudgetCommand.HoldCreate h && h.create().idempotencyKey() != null) {
                    sent.add(h);
                }
                stageQueues
                        .computeIfAbsent(request.tenant(), t -> new ArrayDeque<>())
                        .add(request);
            } else if (what == 3 && !known.isEmpty()) {
                Booking b = known.get(random.nextInt(known.size()));
                Caller owner = b.tenant().equals("team-a") ? TEAM_A : TEAM_B;
                BookingCommand direct = random.nextBoolean()
                        ? new BookingCommand.CancelBooking("c" + step, null, owner, b.pool(), b.id(), now)
                        : new BookingCommand.ReleaseBooking(
                                "r" + step,
                                null,
                                owner,
                                b.pool(),
                                b.id(),
                                BookingCommand.ReleaseBooking.Reason.END_NOW,
                                now,
                                null);
                poolQueues.computeIfAbsent(b.pool(), p -> new ArrayDeque<>()).add(direct);
            } else if (what < 7) {
                List<String> ready = stageQueues.entrySet().stream()
                        .filter(e -> !e.getValue().isEmpty())
                        .map(Map.Entry::getKey)
                        .toList();
                if (!ready.isEmpty()) {
                    String tenant = ready.get(random.nextInt(ready.size()));
                    if (stageStep(stage, tenants, stageQueues.get(tenant).poll(), poolQueues, stageQueues, now)) {
                        refusals[0]++;
                    }
                }
            } else if (what < 9) {
                List<String> ready = poolQueues.entrySet().stream()
                        .filter(e -> !e.getValue().isEmpty())
                        .map(Map.Entry::getKey)
                        .toList();
                if (!ready.isEmpty()) {
                    BookingCommand command = poolQueues
                            .get(ready.get(random.nextInt(ready.size())))
                            .poll();
                    decideAtPool(pools, ledger, command, now, stageQueues, known);
                }
            } else {
                Decision ticked = pools.advance(ledger, now);
                ledger.apply(ticked);
                back(ticked, stageQueues, known);
            }
            assertWithinBudgets(repository, limits, units);
        }
        // Drain: every request decided, every outcome read back.
        while (stageQueues.values().stream().anyMatch(q -> !q.isEmpty())
                || poolQueues.values().stream().anyMatch(q -> !q.isEmpty())) {
            for (Deque<BudgetCommand> q : stageQueues.values()) {
                while (!q.isEmpty()) {
                    stageStep(stage, tenants, q.poll(), poolQueues, stageQueues, now);
                }
            }
            for (Deque<BookingCommand> q : poolQueues.values()) {
                while (!q.isEmpty()) {
                    decideAtPool(pools, ledger, q.poll(), now, stageQueues, known);
                }
            }
            if (stageQueues.values().stream().allMatch(Deque::isEmpty)
                    && poolQueues.values().stream().allMatch(Deque::isEmpty)
                    && now.isBefore(T0.plus(Duration.ofDays(3)))) {
                // Whatever still waits expires at its latest start (all within two days of T0).
                now = T0.plus(Duration.ofDays(3));
                Decision expired = pools.advance(ledger, now);
                ledger.apply(expired);
                back(expired, stageQueues, known);
            }
        }
        assertWithinBudgets(repository, limits, units);
        assertThat(refusals[0]).as("the budgets were reached").isPositive();
        assertThat(known).as("bookings were confirmed").isNotEmpty();
        Map<String, Amount> truth = measured(repository);
        for (String tenant : units.keySet()) {
            TenantLedger stageView = tenants.get(tenant);
            for (String month : MONTHS) {
                Amount fromPools = truth.getOrDefault(tenant + "/" + month, Amount.ZERO);
                assertThat(stageView.booked(month).gpuHours())
                        .as("stage's booked GPU-hours of %s in %s", tenant, month)
                        .isEqualByComparingTo(fromPools.gpuHours());
                assertThat(stageView.held(month).gpuHours())
                        .as("nothing held once drained")
                        .isEqualByComparingTo(BigDecimal.ZERO);
            }
        }
    }

    private static BudgetCommand randomRequest(Random random, Caller caller, List<Booking> known, Instant now) {
        String pool = random.nextInt(3) == 0 ? "h200-mig-2g.35gb" : "h200";
        int quantity = 1 + random.nextInt(3);
        String id = "bk-" + random.nextLong();
        String request = "req-" + random.nextLong();
        List<Booking> mine =
                known.stream().filter(b -> b.tenant().equals(caller.tenant())).toList();
        if (!mine.isEmpty() && random.nextInt(4) == 0) {
            Booking b = mine.get(random.nextInt(mine.size()));
            Instant end = b.end().plus(Duration.ofMinutes(15L * (1 + random.nextInt(24))));
            return new BudgetCommand.HoldChange(
                    caller.tenant(),
                    new BookingCommand.ChangeBooking(request, null, caller, b.pool(), b.id(), b.start(), end, now));
        }
        if (random.nextInt(3) == 0) {
            Duration length = Duration.ofMinutes(15L * (1 + random.nextInt(40)));
            return new BudgetCommand.HoldCreate(
                    caller.tenant(),
                    new BookingCommand.CreateBooking(
                            request,
                            null,
                            caller,
                            pool,
                            id,
                            caller.tenant(),
                            quantity,
                            null,
                            null,
                            null,
                            now,
                            null,
                            length));
        }
        Instant start = alignedAfter(now).plus(Duration.ofMinutes(15L * random.nextInt(40)));
        Instant end = start.plus(Duration.ofMinutes(15L * (1 + random.nextInt(48))));
        String key = random.nextBoolean() ? "key-" + random.nextLong() : null;
        if (random.nextInt(3) == 0) {
            // Waits for room: booked at any start up to its latest start, which may be in the next month.
            boolean bookNow = random.nextBoolean();
            Instant latest = start.plus(Duration.ofMinutes(15L * (1 + random.nextInt(60))));
            return new BudgetCommand.HoldCreate(
                    caller.tenant(),
                    new BookingCommand.CreateBooking(
                            request,
                            key,
                            caller,
                            pool,
                            id,
                            caller.tenant(),
                            quantity + 3,
                            bookNow ? null : start,
                            null,
                            null,
                            now,
                            null,
                            Duration.between(start, end),
                            null,
                            latest));
        }
        return new BudgetCommand.HoldCreate(
                caller.tenant(),
                new BookingCommand.CreateBooking(
                        request, key, caller, pool, id, caller.tenant(), quantity, start, end, null, now));
    }

    /** The same request again under new request and booking ids, as an HTTP client's retry reaches the stage. */
    private static BudgetCommand retry(BudgetCommand.HoldCreate sent, Random random) {
        BookingCommand.CreateBooking c = sent.create();
        return new BudgetCommand.HoldCreate(
                sent.tenant(),
                new BookingCommand.CreateBooking(
                        "retry-" + random.nextLong(),
                        c.idempotencyKey(),
                        c.caller(),
                        c.pool(),
                        "bk-" + random.nextLong(),
                        c.namespace(),
                        c.quantity(),
                        c.start(),
                        c.end(),
                        c.purpose(),
                        c.requestedAt(),
                        c.requestFingerprint(),
                        c.duration(),
                        c.profile(),
                        c.latestStart()));
    }

    private static Instant alignedAfter(Instant t) {
        long quarter = Duration.ofMinutes(15).toMillis();
        return Instant.ofEpochMilli((t.toEpochMilli() / quarter + 1) * quarter);
    }

    /** Whether the stage refused the command for budget. */
    private static boolean stageStep(
            BudgetDecider stage,
            Map<String, TenantLedger> tenants,
            BudgetCommand command,
            Map<String, Deque<BookingCommand>> poolQueues,
            Map<String, Deque<BudgetCommand>> stageQueues,
            Instant now) {
        BudgetDecision decision = stage.decide(command, tenants.get(command.tenant()), now);
        tenants.put(command.tenant(), decision.ledger());
        if (decision.forward() != null) {
            poolQueues
                    .computeIfAbsent(decision.forward().pool(), p -> new ArrayDeque<>())
                    .add(decision.forward());
        }
        if (decision.refusal() != null) {
            BudgetOutcomes.of(decision.refusal())
                    .ifPresent(o -> stageQueues.get(o.tenant()).add(o));
        }
        return decision.refusal() != null;
    }

    /** The pool's writer decides a command and then, as the engine does, books what waits and now fits. */
    private static void decideAtPool(
            BookingDecider pools,
            BookingLedger ledger,
            BookingCommand command,
            Instant now,
            Map<String, Deque<BudgetCommand>> stageQueues,
            List<Booking> known) {
        Decision decision = pools.decide(command, ledger, now);
        ledger.apply(decision);
        back(decision, stageQueues, known);
        for (Decision booked : pools.settleWaitlist(decision, ledger, now)) {
            back(booked, stageQueues, known);
        }
    }

    private static void back(Decision decision, Map<String, Deque<BudgetCommand>> stageQueues, List<Booking> known) {
        for (BookingEvent event : decision.events()) {
            BudgetOutcomes.of(event).ifPresent(o -> stageQueues
                    .computeIfAbsent(o.tenant(), t -> new ArrayDeque<>())
                    .add(o));
            if (event instanceof BookingEvent.BookingConfirmed c) {
                known.add(c.booking());
            }
        }
    }

    private static Map<String, Amount> measured(InMemoryBookingRepository repository) {
        Map<String, Amount> sums = new HashMap<>();
        repository.forEach(b -> {
            if (b.state() == BookingState.PENDING_APPROVAL) {
                return;
            }
            Pool pool = POOLS.find(b.pool()).orElseThrow();
            BudgetMeasure.of(pool, b).forEach((m, a) -> sums.merge(b.tenant() + "/" + m, a, Amount::plus));
        });
        return sums;
    }

    private static void assertWithinBudgets(
            InMemoryBookingRepository repository,
            Map<String, BigDecimal> limits,
            Map<String, TenantBudget.Unit> units) {
        measured(repository).forEach((key, amount) -> {
            BigDecimal limit = limits.get(key);
            if (limit != null) {
                TenantBudget.Unit unit = units.get(key.substring(0, key.indexOf('/')));
                assertThat(amount.in(unit)).as("confirmed %s of %s", unit, key).isLessThanOrEqualTo(limit);
            }
        });
    }
}
