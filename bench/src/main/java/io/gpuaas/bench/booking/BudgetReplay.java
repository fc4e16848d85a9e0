package io.gpuaas.bench.booking;

import io.gpuaas.booking.budget.BudgetMeasure;
import io.gpuaas.booking.model.BookingPolicy;
import io.gpuaas.events.Topics;
import io.gpuaas.events.booking.BookingCommand.CreateBooking;
import io.gpuaas.events.booking.Caller;
import io.gpuaas.events.budget.BudgetCommand;
import io.gpuaas.events.budget.TenantBudget;
import io.gpuaas.events.notice.Notice;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.testing.kafka.EmbeddedKafka;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;

/**
 * The openb replay ({@link OpenbReplay}'s pods, fleet and tenants) with a GPU-hour budget for every tenant and month,
 * through booking-service's real path on a broker with SASL and its ACLs: budgets set as the admin API sets them
 * ({@code SetBudget} on {@code gpuaas.budget-commands}, applied by the engine's budget stage), then every GPU pod as
 * the create an HTTP create becomes ({@code HoldCreate} keyed by tenant: the stage refuses it {@code BUDGET_EXCEEDED}
 * or forwards it with its hold to the pool's writer), in creation order at a fixed open-loop rate, beside the raw
 * round trip of the same broker at the same rate just before.
 *
 * <p>Timeline: the pool decider decides on the wall clock and refuses windows ending beyond its 90-day advance, so
 * trace day {@value #FIRST_DAY} is placed at the first instant of the next UTC month and every pod is booked ahead for
 * its own [creation, deletion) from there, aligned outwards to 15 min; the few pods created before that day are left
 * out. The last deletion (day 149.3) then lands at most 81 days ahead. The replayed weeks span two calendar months.
 */
final class BudgetReplay {

    /** The trace day placed at the first instant of the next UTC month. */
    static final int FIRST_DAY = 100;

    /** A tenant's budget in a month as a share of its own demand there, by its number (tenant-k) modulo 4. */
    static final List<BigDecimal> SHARES =
            List.of(new BigDecimal("0.50"), new BigDecimal("0.80"), new BigDecimal("1.00"), new BigDecimal("1.20"));

    private static final long ALIGN = 900;
    private static final Caller ADMIN = new Caller("bench-admin", "platform", true);

    /**
     * One GPU pod as the create it becomes.
     *
     * @param gpuHours what it asks for, MIG units weighed as a share of a GPU
     * @param needs    the same per month, as the budget stage measures it (6 decimals)
     */
    record Request(CreateBooking create, double gpuHours, SortedMap<String, BigDecimal> needs) {
        String tenant() {
            return create.caller().tenant();
        }
    }

    /**
     * What one replay measured.
     *
     * @param pods      GPU pods in the trace
     * @param earlier   of them, those created before trace day {@value #FIRST_DAY} (left out)
     * @param every     of the others, every {@code every}-th is replayed (1: all)
     * @param rate      creates per second, open loop
     * @param requests  the creates replayed
     * @param base      where trace day {@value #FIRST_DAY} was placed
     * @param demand    per {@code tenant/yyyy-MM} the GPU-hours its requests ask for
     * @param limits    per {@code tenant/yyyy-MM} the budget set
     * @param stage     the budget stage's last figures per {@code tenant/yyyy-MM}, read from {@code gpuaas.budgets}
     * @param settled   whether every hold was given back or counted within the wait
     * @param notices   every threshold notice read
     * @param raw       the raw round trip at the same rate, just before
     * @param decisions the replay's own creates: intended send → committed answer read
     */
    record Outcome(
            int pods,
            int earlier,
            int every,
            int rate,
            List<Request> requests,
            Instant base,
            Map<String, BigDecimal> demand,
            Map<String, BigDecimal> limits,
            BudgetTally tally,
            Map<String, TenantBudget> stage,
            boolean settled,
            List<Notice.BudgetThresholdReached> notices,
            DecisionLatencyBench.Result raw,
            DecisionLatencyBench.Result decisions) {}

    private BudgetReplay() {}

    /**
     * Replays {@code csv} at {@code rate}/s on a broker of its own (every {@code every}-th pod: 1 for all).
     *
     * @throws IllegalStateException when a tenant's confirmed bookings in a month count more than its budget
     */
    static Outcome run(Path csv, int rate, int every, Map<String, String> streamsOverrides) throws Exception {
        List<NoShowReplay.Pod> pods = NoShowReplay.pods(csv);
        Instant base = YearMonth.now(ZoneOffset.UTC)
                .plusMonths(1)
                .atDay(1)
                .atStartOfDay()
                .toInstant(ZoneOffset.UTC);
        List<Request> requests = requests(pods, every, base);
        Map<String, BigDecimal> demand = demand(requests);
        Map<String, BigDecimal> limits = limits(demand);
        Map<String, Request> byRequest = new HashMap<>();
        requests.forEach(r -> byRequest.put(r.create().requestId(), r));
        BudgetTally tally = new BudgetTally(OpenbReplay.POOLS, byRequest);
        try (EmbeddedKafka broker = EmbeddedKafka.start()) {
            DecisionLatencyBench bench = new DecisionLatencyBench(broker, streamsOverrides);
            KafkaStreams engine = bench.startEngine(OpenbReplay.POOLS);
            try (BudgetWatch watch = new BudgetWatch(broker, bench.prefix())) {
                setBudgets(bench, limits);
                if (!watch.await(m -> BudgetWatch.settled(m, limits), Duration.ofMinutes(2))) {
                    throw new IllegalStateException("the budget stage did not apply the budgets within 2 min");
                }
                int seconds = (int) Math.ceil(requests.size() / (double) rate);
                DecisionLatencyBench.Result raw = bench.rawRoundTrip(rate, seconds);
                bench.commands((random, i) -> requests.get((int) i).create(), tally::decided);
                DecisionLatencyBench.Result decisions =
                        bench.decisions(rate, requests.size(), false, DecisionLatencyBench.Route.BUDGET_STAGE);
                boolean settled = watch.await(m -> BudgetWatch.settled(m, limits), Duration.ofMinutes(2));
                Outcome outcome = new Outcome(
                        pods.size(),
                        (int) pods.stream()
                                .filter(p -> p.created() < FIRST_DAY * 86_400L)
                                .count(),
                        every,
                        rate,
                        requests,
                        base,
                        demand,
                        limits,
                        tally,
                        watch.months(),
                        settled,
                        watch.notices(),
                        raw,
                        decisions.named("openb with budgets: decisions at " + rate + "/s"));
                requireWithinBudgets(outcome);
                return outcome;
            } finally {
                engine.close(Duration.ofSeconds(10));
            }
        }
    }

    /** The pods created from trace day {@value #FIRST_DAY} on, every {@code every}-th, booked ahead from {@code base}. */
    static List<Request> requests(List<NoShowReplay.Pod> pods, int every, Instant base) {
        long first = FIRST_DAY * 86_400L;
        Instant latestEnd = Instant.now().plus(BookingPolicy.DEFAULT.maxAdvance());
        List<Request> requests = new ArrayList<>();
        int n = 0;
        for (NoShowReplay.Pod pod : pods) {
            if (pod.created() < first || n++ % every != 0) {
                continue;
            }
            Instant start = base.plusSeconds((pod.created() - first) / ALIGN * ALIGN);
            Instant end = base.plusSeconds((pod.deleted() - first + ALIGN - 1) / ALIGN * ALIGN);
            if (end.isAfter(latestEnd)) {
                throw new IllegalStateException("trace day " + FIRST_DAY + " at " + base + " puts " + pod.name()
                        + " beyond the policy's advance: the timeline no longer fits");
            }
            String tenant = OpenbReplay.tenantOf(pod.name());
            Caller caller = new Caller(pod.name(), tenant, false);
            CreateBooking create = new CreateBooking(
                    UUID.randomUUID().toString(),
                    null,
                    caller,
                    pod.pool(),
                    UUID.randomUUID().toString(),
                    tenant,
                    pod.gpus(),
                    start,
                    end,
                    null,
                    Instant.now());
            Pool pool = OpenbReplay.POOLS.find(pod.pool()).orElseThrow();
            SortedMap<String, BigDecimal> needs = new TreeMap<>();
            BudgetMeasure.of(pool, null, pod.gpus(), start, end).forEach((m, a) -> needs.put(m, a.gpuHours()));
            requests.add(new Request(create, gpuHours(OpenbReplay.POOLS, pod.pool(), pod.gpus(), start, end), needs));
        }
        return requests;
    }

    /** Per {@code tenant/yyyy-MM}: the GPU-hours every replayed request of the tenant asks for in that month. */
    static Map<String, BigDecimal> demand(List<Request> requests) {
        Map<String, BigDecimal> demand = new TreeMap<>();
        for (Request r : requests) {
            r.needs().forEach((month, h) -> demand.merge(TenantBudget.key(r.tenant(), month), h, BigDecimal::add));
        }
        return demand;
    }

    /** The rule: the tenant's share ({@link #share}) of its demand in the month, rounded down to 6 decimals. */
    static Map<String, BigDecimal> limits(Map<String, BigDecimal> demand) {
        Map<String, BigDecimal> limits = new TreeMap<>();
        demand.forEach((key, h) ->
                limits.put(key, h.multiply(share(tenantOfKey(key))).setScale(BudgetMeasure.SCALE, RoundingMode.DOWN)));
        return limits;
    }

    /** The budget share of {@code tenant-k}: {@link #SHARES} at k modulo 4. */
    static BigDecimal share(String tenant) {
        return SHARES.get(Integer.parseInt(tenant.substring(tenant.lastIndexOf('-') + 1)) % SHARES.size());
    }

    static String tenantOfKey(String key) {
        return key.substring(0, key.indexOf('/'));
    }

    /** {@code quantity} units of {@code pool} over [start, end) in GPU-hours, MIG weighed as the ledger weighs it. */
    static double gpuHours(PoolCatalog pools, String pool, int quantity, Instant start, Instant end) {
        double fraction = pools.find(pool).map(Pool::gpuFraction).orElse(1.0);
        return quantity * fraction * Duration.between(start, end).toSeconds() / 3600.0;
    }

    /** Each budget as an admin's PUT becomes it: a SetBudget keyed by tenant, written with booking-service's user. */
    private static void setBudgets(DecisionLatencyBench bench, Map<String, BigDecimal> limits) {
        Map<String, Object> config = new HashMap<>(bench.service());
        config.put("enable.idempotence", true);
        config.put("acks", "all");
        try (KafkaProducer<String, BudgetCommand> producer = new KafkaProducer<>(
                config,
                new StringSerializer(),
                Topics.BUDGET_COMMANDS.valueSerde().serializer())) {
            limits.forEach((key, limit) -> {
                String tenant = tenantOfKey(key);
                BudgetCommand set = new BudgetCommand.SetBudget(
                        UUID.randomUUID().toString(),
                        ADMIN,
                        tenant,
                        key.substring(key.indexOf('/') + 1),
                        TenantBudget.Unit.GPU_HOURS,
                        limit,
                        null,
                        Instant.now());
                producer.send(new ProducerRecord<>(Topics.BUDGET_COMMANDS.name(bench.prefix()), tenant, set));
            });
        }
    }

    /** The invariant, checked on what was confirmed: fails the bench if any tenant's month counts over its budget. */
    private static void requireWithinBudgets(Outcome o) {
        List<String> over = new ArrayList<>();
        o.tally().booked().forEach((key, booked) -> {
            BigDecimal limit = o.limits().get(key);
            if (limit != null && booked.compareTo(limit) > 0) {
                over.add(key + " booked " + booked.toPlainString() + " of a budget of " + limit.toPlainString());
            }
        });
        if (!over.isEmpty()) {
            throw new IllegalStateException("budget replay: confirmed bookings over the budget: " + over);
        }
    }

    /** {@code BudgetReplay <openb-pod-list.csv> [rate] [every]}: one replay, printed as the booking report's section. */
    public static void main(String[] args) throws Exception {
        Path csv = Path.of(args.length > 0 ? args[0] : "../shared/data/openb-pod-list.csv");
        StringBuilder md = new StringBuilder();
        BudgetReport.append(
                md,
                run(
                        csv,
                        args.length > 1 ? Integer.parseInt(args[1]) : 500,
                        args.length > 2 ? Integer.parseInt(args[2]) : 1,
                        Map.of()));
        System.out.print(md);
    }
}
