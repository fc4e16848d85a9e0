package io.gpuaas.bench.booking;

import io.gpuaas.bench.BenchOptions;
import io.gpuaas.bench.suite.JvmActivity;
import io.gpuaas.bench.suite.WarmUp;
import io.gpuaas.booking.model.BookingDecider;
import io.gpuaas.booking.model.BookingLedger;
import io.gpuaas.booking.model.BookingPolicy;
import io.gpuaas.booking.model.Decision;
import io.gpuaas.booking.model.InMemoryBookingRepository;
import io.gpuaas.events.booking.BookingCommand.CreateBooking;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.Caller;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.events.pool.PoolNode;
import io.gpuaas.testing.kafka.EmbeddedKafka;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.apache.kafka.streams.KafkaStreams;

/**
 * Issue 27's last bench target: decision latency on one flexible MIG pool of {@code --gpus} H200s ({@code --gpus / 8}
 * nodes of 8), the only pool in the catalog the engine reads, at a fixed open-loop rate, beside the raw produce →
 * consume round trip of the same broker in the same run. Commands mix whole GPUs and MIG profiles; before the measured
 * rounds the timeline is filled (commands sent as fast as the engine takes them) so the timed decisions meet a busy
 * fleet, and the horizon is sized so the measured rounds leave it high but not saturated.
 *
 * <pre>
 * java -Xmx1500m -Xms1500m -cp "bench/target/classes:$(cat bench/target/classpath.txt)" \
 *     io.gpuaas.bench.booking.FlexDecisionBench [--gpus 1000] [--rate 500] [--seconds 10] [--runs 3]
 *     [--warmup-rounds 3] [--fill 0.7] [--out bench/target/suite/booking-flex.md]
 * </pre>
 * Authentication and ACLs are on (booking-service's own user), as in production; only that broker is measured.
 */
public final class FlexDecisionBench {

    private static final String POOL = "h200-flex";
    private static final String MODEL = "NVIDIA H200";
    /** The MIG profiles the mix spreads its non-whole share over, evenly. */
    private static final List<String> PROFILES = List.of("1g.18gb", "2g.35gb", "3g.71gb", "4g.71gb");
    /** Share of commands asking for whole GPUs (no profile). */
    private static final double WHOLE_SHARE = 0.6;
    /** Occupancy the horizon is sized for once the fill and every planned round are decided. */
    private static final double END_OCCUPANCY = 0.9;

    private static final int WARM_PLACEMENTS = 20_000;
    private static final Instant BASE = Instant.now().plus(Duration.ofDays(1)).truncatedTo(ChronoUnit.DAYS);

    private FlexDecisionBench() {}

    public static void main(String[] args) throws Exception {
        BenchOptions opts = BenchOptions.of(args);
        int gpus = opts.integer("gpus", 1000);
        int rate = opts.integer("rate", 500);
        int seconds = opts.integer("seconds", 10);
        int runs = opts.integer("runs", 3);
        int warmUpRounds = opts.integer("warmup-rounds", 3);
        double fill = opts.decimal("fill", 0.7);
        Path out = opts.path("out", "bench/target/suite/booking-flex.md");
        double loadBefore = Machine.load();

        List<PoolNode> nodes = new ArrayList<>();
        for (int n = 0; n < gpus / 8; n++) {
            nodes.add(new PoolNode(String.format(Locale.ROOT, "h200-node-%03d", n), 8));
        }
        Pool pool = Pool.flexible(POOL, POOL, MODEL, Duration.ofMinutes(15), nodes);
        if (!pool.bookableProfiles().containsAll(PROFILES)) {
            throw new IllegalStateException("H200 profiles " + pool.bookableProfiles() + " lack some of " + PROFILES);
        }
        PoolCatalog catalog = new PoolCatalog(List.of(pool));
        int capacityGpus = nodes.size() * 8;

        // The mean GPU-hours one command asks for, from the mix itself; then a horizon (start times spread evenly over
        // it) such that the fill leaves the fleet at `fill` and the fill plus every planned round at END_OCCUPANCY.
        double meanGpuHours = meanGpuHours(pool);
        long planned = (long) (warmUpRounds + runs) * rate * seconds;
        double capacityGpuHours = planned * meanGpuHours / (END_OCCUPANCY - fill);
        int horizonQuarters = (int) Math.ceil(capacityGpuHours / capacityGpus * 4);
        long fillCommands = Math.round(fill * capacityGpuHours / meanGpuHours);
        Mix mix = new Mix(pool, horizonQuarters);

        StringBuilder md = new StringBuilder();
        md.append("## booking-service: decisions on a flexible MIG pool (issue 27)\n\n")
                .append(String.format(
                        Locale.ROOT,
                        "Measured %s on %d cores (shared with other builds, noisy; load average %.2f before), JDK %s (%s), "
                                + "broker in the same JVM (EmbeddedKafka, KRaft, 1 node; SASL and ACLs on, booking-service's "
                                + "own user).%n%n",
                        Instant.now(),
                        Runtime.getRuntime().availableProcessors(),
                        loadBefore,
                        Runtime.version(),
                        JvmActivity.heapFlags()))
                .append(String.format(
                        Locale.ROOT,
                        "Catalog: one flexible pool `%s`, %d %s nodes × 8 = %,d GPUs, nothing else. Commands: %.0f %% whole "
                                + "GPUs (1–4), the rest evenly over %s (1–2 units); windows of 15 min – 8 h (whole quarters, "
                                + "uniform) starting on a quarter uniform over %.1f days from tomorrow 00:00 UTC; 20 tenants. "
                                + "Mean asked %.2f GPU-h per command. The horizon is sized so the fill (%,d commands, sent "
                                + "as fast as the engine takes them) books %.0f %% of its GPU-hours and the fill plus every "
                                + "planned round (%d warm-up at most + %d measured, %,d commands each) %.0f %%; capacity "
                                + "refusals lower what is actually booked (the table says).%n%n",
                        POOL,
                        nodes.size(),
                        MODEL,
                        capacityGpus,
                        100 * WHOLE_SHARE,
                        PROFILES,
                        horizonQuarters / 96.0,
                        meanGpuHours,
                        fillCommands,
                        100 * fill,
                        warmUpRounds,
                        runs,
                        (long) rate * seconds,
                        100 * END_OCCUPANCY));

        Tally tally = new Tally(capacityGpus * horizonQuarters / 4.0, mix);
        EmbeddedKafka broker = EmbeddedKafka.start();
        List<Row> rows = new ArrayList<>();
        String warmUp;
        try {
            DecisionLatencyBench bench = new DecisionLatencyBench(broker, Map.of());
            bench.commands(mix, tally);
            KafkaStreams engine = bench.startEngine(catalog);
            try {
                int chunk = 5_000;
                for (long sent = 0; sent < fillCommands; sent += chunk) {
                    int n = (int) Math.min(chunk, fillCommands - sent);
                    DecisionLatencyBench.Result r = bench.decisions(n, 1, true);
                    rows.add(new Row(r.named("fill (not timed) " + (sent / chunk + 1)), tally.snapshot()));
                    if (r.count() < n) {
                        System.out.println("PROBLEM fill chunk answered " + r.count() + " of " + n);
                    }
                }
                String placementWarmUp = warmPlacementPaths(nodes.subList(0, Math.min(8, nodes.size())));
                warmUp = WarmUp.run(warmUpRounds, round -> {
                                    String label = "warm-up (discarded) " + round + ": ";
                                    DecisionLatencyBench.Result raw = bench.rawRoundTrip(rate, seconds);
                                    rows.add(new Row(raw.named(label + raw.name()), null));
                                    DecisionLatencyBench.Result d = bench.decisions(rate, seconds, false);
                                    rows.add(new Row(
                                            d.named(label + "flexible decisions at " + rate + "/s"), tally.snapshot()));
                                })
                                .describe("the same raw and decision runs")
                        + " " + placementWarmUp;
                for (int r = 0; r < runs; r++) {
                    DecisionLatencyBench.Result raw = bench.rawRoundTrip(rate, seconds);
                    rows.add(new Row(raw, null));
                    DecisionLatencyBench.Result d = bench.decisions(rate, seconds, false);
                    rows.add(new Row(d.named("flexible decisions at " + rate + "/s"), tally.snapshot()));
                }
            } finally {
                engine.close(Duration.ofSeconds(10));
            }
        } finally {
            broker.close();
        }
        table(md, rows, warmUp);
        summary(md, rows, rate, gpus);
        md.append(String.format(Locale.ROOT, "%nLoad average after: %.2f.%n", Machine.load()))
                .append(
                        "\nReproduce: `./mvnw -B -o -q install -DskipTests && bench/run --no-build --only booking-flex --out /tmp/flex`")
                .append(" (quick: add `--quick`), or `java ")
                .append(JvmActivity.heapFlags())
                .append(" -cp \"bench/target/classes:$(cat bench/target/classpath.txt)\" ")
                .append("io.gpuaas.bench.booking.FlexDecisionBench");
        md.append(opts.arguments()).append("`\n");
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, md.toString());
        System.out.println(md);
    }

    /** One table row: a run and, for decision runs, the timeline's tally right after it. */
    private record Row(DecisionLatencyBench.Result result, String tally) {}

    private static void table(StringBuilder md, List<Row> rows, String warmUp) {
        md.append(
                        "Open loop at the fixed rate: latency counts from the intended send time to the committed decision read "
                                + "back (read_committed); each create goes through its tenant's budget stage "
                                + "(gpuaas.budget-commands, no budget set) to the pool's writer, as an HTTP create does. 'raw' is an idempotent acks=all produce → read_committed consume of a "
                                + "300-byte record on the same broker in the same run (the baseline). Fill rows are sent "
                                + "without pacing (their latency is queueing, not a target figure).\n\n")
                .append(warmUp)
                .append(
                        "\n\n| run | records | seconds | records/s | p50 ms | p99 ms | p999 ms | max ms | JIT ms | GC ms "
                                + "| booked after (accepted, refused, share of horizon GPU-h) |\n"
                                + "|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (Row row : rows) {
            DecisionLatencyBench.Result r = row.result();
            Histogram h = r.latencyMicros();
            md.append(String.format(
                    Locale.ROOT,
                    "| %s | %d | %.1f | %.0f | %.1f | %.1f | %.1f | %.1f | %d | %d | %s |%n",
                    r.name(),
                    r.count(),
                    r.seconds(),
                    r.perSecond(),
                    h.getValueAtPercentile(50) / 1000.0,
                    h.getValueAtPercentile(99) / 1000.0,
                    h.getValueAtPercentile(99.9) / 1000.0,
                    h.getMaxValue() / 1000.0,
                    r.jvm().jitMillis(),
                    r.jvm().gcMillis(),
                    row.tally() == null ? "—" : row.tally()));
        }
        md.append(
                "\nStages of the timed decisions: *to task* = intended send → processed by the decision task; *to "
                        + "read* = processed → committed decision read.\n\n"
                        + "| run | to task p50 | to task p99 | to read p50 | to read p99 | engine |\n|---|---|---|---|---|---|\n");
        for (Row row : rows) {
            DecisionLatencyBench.Result r = row.result();
            if (r.toProcessedMicros() == null || r.name().startsWith("fill")) {
                continue;
            }
            md.append(String.format(
                    Locale.ROOT,
                    "| %s | %.1f | %.1f | %.1f | %.1f | %s |%n",
                    r.name(),
                    r.toProcessedMicros().getValueAtPercentile(50) / 1000.0,
                    r.toProcessedMicros().getValueAtPercentile(99) / 1000.0,
                    r.toReadMicros().getValueAtPercentile(50) / 1000.0,
                    r.toReadMicros().getValueAtPercentile(99) / 1000.0,
                    r.engine()));
        }
    }

    /** The target (p99 ≤ 50 ms at 500/s on 1,000 GPUs) against the measured rounds, and RESULT lines for the suite. */
    private static void summary(StringBuilder md, List<Row> rows, int rate, int gpus) {
        List<DecisionLatencyBench.Result> timed = rows.stream()
                .map(Row::result)
                .filter(r -> r.name().startsWith("flexible decisions at"))
                .toList();
        List<DecisionLatencyBench.Result> raw = rows.stream()
                .map(Row::result)
                .filter(r -> r.name().startsWith("raw"))
                .toList();
        long met = timed.stream()
                .filter(r -> r.latencyMicros().getValueAtPercentile(99) <= 50_000)
                .count();
        md.append(String.format(
                Locale.ROOT,
                "%nOn %,d flexible GPUs at %d/s, decision p99 ranged %.1f–%.1f ms over %d measured rounds (target ≤ 50 ms: "
                        + "met in %d), p50 %.1f–%.1f ms, p999 %.1f–%.1f ms, against a raw round-trip p99 of %.1f–%.1f ms "
                        + "in the same rounds.%n",
                gpus,
                rate,
                pct(timed, 99, false),
                pct(timed, 99, true),
                timed.size(),
                met,
                pct(timed, 50, false),
                pct(timed, 50, true),
                pct(timed, 99.9, false),
                pct(timed, 99.9, true),
                pct(raw, 99, false),
                pct(raw, 99, true)));
        for (int i = 0; i < timed.size(); i++) {
            Histogram d = timed.get(i).latencyMicros();
            Histogram b = raw.get(i).latencyMicros();
            System.out.printf(
                    Locale.ROOT,
                    "RESULT flex.fixed_p50_ms %.3f ms%nRESULT flex.fixed_p99_ms %.3f ms%nRESULT flex.fixed_p999_ms %.3f ms%n"
                            + "RESULT flex.raw_p99_ms %.3f ms%n",
                    d.getValueAtPercentile(50) / 1000.0,
                    d.getValueAtPercentile(99) / 1000.0,
                    d.getValueAtPercentile(99.9) / 1000.0,
                    b.getValueAtPercentile(99) / 1000.0);
        }
    }

    private static double pct(List<DecisionLatencyBench.Result> rows, double percentile, boolean max) {
        var values = rows.stream().mapToDouble(r -> r.latencyMicros().getValueAtPercentile(percentile) / 1000.0);
        return (max ? values.max() : values.min()).orElse(0);
    }

    private static double meanGpuHours(Pool pool) {
        Mix mix = new Mix(pool, 96);
        Random random = new Random(7);
        double sum = 0;
        int n = 200_000;
        for (int i = 0; i < n; i++) {
            sum += mix.gpuHours(mix.next(random, i));
        }
        return sum / n;
    }

    /**
     * Runs the decider in this JVM, away from the engine and its topics, on a private flexible pool of {@code nodes}
     * until it is full: refusals, their explanation and moves come only once the measured fleet is nearly full (the
     * last rounds), so without this their code is compiled inside a measured round. Nothing of it reaches the
     * engine's fleet or the figures.
     */
    private static String warmPlacementPaths(List<PoolNode> nodes) {
        Pool pool = Pool.flexible(POOL, POOL, MODEL, Duration.ofMinutes(15), nodes);
        PoolCatalog catalog = new PoolCatalog(List.of(pool));
        BookingDecider decider = new BookingDecider(catalog, BookingPolicy.DEFAULT);
        BookingLedger ledger = new BookingLedger(new InMemoryBookingRepository(), catalog).rebuild();
        // Two days of starts on 64 GPUs: about three times what they hold, so most of the later commands are refused
        // or need a move.
        Mix mix = new Mix(pool, 2 * 96);
        Random random = new Random(11);
        long t0 = System.nanoTime();
        int confirmed = 0;
        int moved = 0;
        int refused = 0;
        for (int i = 0; i < WARM_PLACEMENTS; i++) {
            Decision d = decider.decide(mix.next(random, i), ledger, Instant.now());
            ledger.apply(d);
            if (d.events().stream().anyMatch(e -> e instanceof BookingEvent.BookingMoved)) {
                moved++;
            }
            if (d.events().stream().anyMatch(e -> e instanceof BookingEvent.BookingConfirmed)) {
                confirmed++;
            } else {
                refused++;
            }
        }
        mix.asked.clear();
        return String.format(
                Locale.ROOT,
                "Before them, the placement code was warmed in this JVM on a private %d-GPU flexible pool (the same "
                        + "mix, starts over 2 days; %,d commands in %.1f s: %,d confirmed, %,d with a move, %,d refused), "
                        + "so the refusal and move paths are compiled before the last rounds need them.",
                nodes.size() * 8,
                WARM_PLACEMENTS,
                (System.nanoTime() - t0) / 1e9,
                confirmed,
                moved,
                refused);
    }

    /** The command mix; remembers what each command asked for until its decision is read. */
    private static final class Mix implements DecisionLatencyBench.Commands {
        private final Pool pool;
        private final int horizonQuarters;
        final Map<String, Double> asked = new ConcurrentHashMap<>();

        Mix(Pool pool, int horizonQuarters) {
            this.pool = pool;
            this.horizonQuarters = horizonQuarters;
        }

        @Override
        public CreateBooking next(Random random, long i) {
            Instant start = BASE.plus(Duration.ofMinutes(15L * random.nextInt(horizonQuarters)));
            Instant end = start.plus(Duration.ofMinutes(15L * (1 + random.nextInt(32))));
            boolean whole = random.nextDouble() < WHOLE_SHARE;
            String profile = whole ? null : PROFILES.get(random.nextInt(PROFILES.size()));
            int quantity = whole ? 1 + random.nextInt(4) : 1 + random.nextInt(2);
            Caller caller = new Caller("bench", "team-" + (i % 20), false);
            CreateBooking command = new CreateBooking(
                    UUID.randomUUID().toString(),
                    null,
                    caller,
                    POOL,
                    UUID.randomUUID().toString(),
                    caller.tenant(),
                    quantity,
                    start,
                    end,
                    null,
                    Instant.now(),
                    null,
                    null,
                    profile);
            asked.put(command.requestId(), gpuHours(command));
            return command;
        }

        double gpuHours(CreateBooking c) {
            return c.quantity()
                    * pool.gpuFraction(c.profile())
                    * Duration.between(c.start(), c.end()).toMinutes()
                    / 60.0;
        }
    }

    /** Accepted and refused decisions and the GPU-hours accepted, over the whole timeline so far. */
    private static final class Tally implements java.util.function.Consumer<BookingEvent> {
        private final double horizonGpuHours;
        private final Mix mix;
        private final LongAdder accepted = new LongAdder();
        private final Map<String, LongAdder> refused = new TreeMap<>();
        private final DoubleAdder bookedGpuHours = new DoubleAdder();

        Tally(double horizonGpuHours, Mix mix) {
            this.horizonGpuHours = horizonGpuHours;
            this.mix = mix;
        }

        @Override
        public void accept(BookingEvent event) {
            switch (event) {
                case BookingEvent.BookingConfirmed c -> {
                    accepted.increment();
                    Double h = mix.asked.remove(c.requestId());
                    bookedGpuHours.add(h == null ? 0 : h);
                }
                case BookingEvent.BookingRejected r -> {
                    mix.asked.remove(r.requestId());
                    synchronized (refused) {
                        refused.computeIfAbsent(r.reason(), k -> new LongAdder())
                                .increment();
                    }
                }
                default -> {}
            }
        }

        String snapshot() {
            String reasons;
            synchronized (refused) {
                reasons = refused.toString();
            }
            return String.format(
                    Locale.ROOT,
                    "%,d, %s, %.1f %%",
                    accepted.sum(),
                    reasons,
                    100 * bookedGpuHours.sum() / horizonGpuHours);
        }
    }

    /** The load average (1 min), or -1 where /proc/loadavg cannot be read. */
    private static final class Machine {
        static double load() {
            try {
                return Double.parseDouble(
                        Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
            } catch (Exception e) {
                return -1;
            }
        }
    }
}
