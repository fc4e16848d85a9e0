package io.gpuaas.bench.booking;

import io.gpuaas.bench.BenchOptions;
import io.gpuaas.bench.suite.JvmActivity;
import io.gpuaas.booking.model.BookingPolicy;
import io.gpuaas.booking.model.LifecycleRules;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.testing.kafka.EmbeddedKafka;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.HdrHistogram.Histogram;
import org.apache.kafka.streams.KafkaStreams;

/**
 * The openb pod list replayed as book-now bookings through booking-service's real decision engine and lifecycle
 * (Kafka Streams, exactly-once, on an embedded broker with SASL and booking-service's ACLs), a deterministic 20 % of
 * them never used, on the openb fleet and on the local stack's fleet: GPU-hours booked beside the GPU-hours the
 * no-show release gave back, and whether exactly the unused bookings were released. On the openb fleet, while the
 * replay runs (the lifecycle's punctuation walking its active bookings, Workloads arriving, releases decided),
 * decisions at a fixed rate beside the raw produce → consume round trip of the same broker.
 *
 * <pre>
 * java -cp "$(cat bench/target/classpath.txt):bench/target/classes" io.gpuaas.bench.booking.NoShowBench \
 *     --csv ../shared/data/openb-pod-list.csv [--minutes 3] [--grace-ms 2000] [--interval-ms 250] [--rate 500]
 *     [--seconds 10] [--runs 3] [--warmup-rounds 2] [--out bench/results/no-show.md]
 * </pre>
 * Lifetimes and the grace are scaled so the shipped 15-minute grace lasts {@code --grace-ms}; the pods arrive in
 * creation order at an even rate, all within {@code --minutes} (openb's creations cluster in its last 40 days: at
 * their own spacing, the first third of the run would hold a handful of bookings). Arrivals are thus far denser than
 * in the trace, so more bookings overlap than openb's pods did. The decision runs start a third into the replay,
 * when the active bookings have built up; their warm-up rounds run before it.
 */
public final class NoShowBench {

    /** The shipped default grace; the bench's grace stands for it. */
    private static final Duration SHIPPED_GRACE = Duration.ofMinutes(15);

    private NoShowBench() {}

    public static void main(String[] args) throws Exception {
        BenchOptions opts = BenchOptions.of(args);
        Path csv = opts.path("csv", "../shared/data/openb-pod-list.csv");
        double minutes = opts.decimal("minutes", 3);
        Duration grace = Duration.ofMillis(opts.longInteger("grace-ms", 2000));
        Duration interval = Duration.ofMillis(opts.longInteger("interval-ms", 250));
        Path out = opts.path("out", "bench/results/no-show.md");
        List<NoShowReplay.Pod> pods = NoShowReplay.pods(csv);
        double durations = (double) SHIPPED_GRACE.toMillis() / grace.toMillis();
        double perSecond = pods.size() / (minutes * 60);
        // A release comes within an interval of its time, plus the commit and the reading of the decision.
        Duration margin = interval.multipliedBy(2).plusSeconds(2);
        StringBuilder md = new StringBuilder("## No-show release: the openb pod list as bookings, 20 % never used\n\n")
                .append(String.format(
                        Locale.ROOT,
                        "Measured %s on %d cores (shared, noisy), JDK %s (%s). %d GPU pods of %s, each booked now (book-now "
                                + "with a duration) in its own tenant and namespace, on the pool its gpu_milli maps to "
                                + "(as in the openb replay above). Lifetimes scaled 1:%.0f, so the shipped 15-min no-show "
                                + "grace is %d ms here (per pool in the bench's catalog; ending-soon leads 15 and 5 min "
                                + "scaled alike; lifecycle interval %d ms; booking alignment 100 ms = %.0f trace s); "
                                + "the pods arrive in creation order at an even %.1f/s, within %.1f min (far denser "
                                + "than the trace, so more bookings overlap). Unused: the %d pods (20 %%) lowest by "
                                + "SHA-256 of their name; every other confirmed booking gets a pending Workload of its "
                                + "namespace on gpuaas.kueue-workloads right after its decision is read, and feed "
                                + "watermarks go to each of its partitions every 500 ms (the lifecycle's feed guard "
                                + "on, bound 2 min). GPU-hours in "
                                + "trace hours, MIG slices weighted as the ledger weighs them (1/k of a GPU, k to a GPU). "
                                + "*Expected* = unused bookings "
                                + "longer than grace + %d ms (each must be released); unused ones no longer than the "
                                + "grace end on their own (a release at or after the end is not made); those between "
                                + "are *borderline* (either is right).%n%n",
                        Instant.now(),
                        Runtime.getRuntime().availableProcessors(),
                        Runtime.version(),
                        JvmActivity.heapFlags(),
                        pods.size(),
                        csv.getFileName(),
                        durations,
                        grace.toMillis(),
                        interval.toMillis(),
                        0.1 * durations,
                        perSecond,
                        minutes,
                        pods.stream().filter(NoShowReplay.Pod::unused).count(),
                        margin.toMillis()));
        md.append("| fleet | GPU pods | accepted | rejected | unused accepted | GPU-h booked | GPU-h returned by "
                        + "no-show release | returned / booked | released | expected | missed | used released | "
                        + "short released | borderline | warnings to used |\n")
                .append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        List<LatencyRow> latency = new ArrayList<>();
        Map<String, PoolCatalog> fleets =
                Map.of("openb", OpenbReplay.POOLS, "local16", PoolCatalog.load(Optional.empty()));
        for (String fleet : List.of("openb", "local16")) {
            Fleet run = new Fleet(fleet, withGrace(fleets.get(fleet), grace), grace, interval, durations);
            ReplayTally.Outcome o = run.replay(pods, perSecond, margin, fleet.equals("openb") ? opts : null, latency);
            row(md, fleet, o);
        }
        latencyTable(md, latency);
        md.append("\nReproduce: `bench/run --only booking-no-show --no-reliability --out /tmp/no-show`\n");
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, md.toString());
        System.out.println(md);
    }

    /** One latency run: raw and decisions, with the replay's active bookings before it. */
    record LatencyRow(int activeBefore, DecisionLatencyBench.Result result) {}

    /** One fleet: its broker, engine and replay. */
    private record Fleet(String name, PoolCatalog pools, Duration grace, Duration interval, double durations) {

        ReplayTally.Outcome replay(
                List<NoShowReplay.Pod> pods,
                double perSecond,
                Duration margin,
                BenchOptions latencyOpts,
                List<LatencyRow> latency)
                throws Exception {
            try (EmbeddedKafka broker = EmbeddedKafka.start()) {
                DecisionLatencyBench bench = new DecisionLatencyBench(broker, Map.of());
                List<Duration> leads = List.of(scaled(Duration.ofMinutes(15)), scaled(Duration.ofMinutes(5)));
                BookingPolicy policy = new BookingPolicy(
                        Duration.ofDays(14), Duration.ofDays(90), Duration.ofMillis(100), 1.0, Duration.ofMinutes(1));
                // The feed guard as shipped (bound 2 min), the replay writing watermarks twice a second.
                LifecycleRules rules = new LifecycleRules(leads, pools, grace, Duration.ofMinutes(2));
                KafkaStreams engine =
                        bench.startEngine(new DecisionLatencyBench.Lifecycle(pools, policy, rules, interval));
                NoShowReplay replay = new NoShowReplay(broker, bench.prefix(), bench.service(), pools);
                ExecutorService side = Executors.newSingleThreadExecutor();
                try {
                    Future<?> measured = null;
                    if (latencyOpts != null) {
                        warmUp(bench, latencyOpts, latency);
                        long rampMillis = (long) (pods.size() / perSecond * 1000 / 3);
                        measured = side.submit(() -> measure(bench, replay, latencyOpts, latency, rampMillis));
                    }
                    ReplayTally.Outcome outcome = replay.run(pods, perSecond, durations, grace, margin);
                    if (measured != null) {
                        measured.get();
                    }
                    return outcome;
                } finally {
                    side.shutdownNow();
                    engine.close(Duration.ofSeconds(10));
                }
            }
        }

        private Duration scaled(Duration traceTime) {
            return Duration.ofNanos((long) (traceTime.toNanos() / durations));
        }

        /** Raw and decision rounds like the measured ones, before the replay; their rows are marked discarded. */
        private static void warmUp(DecisionLatencyBench bench, BenchOptions opts, List<LatencyRow> rows)
                throws Exception {
            int rounds = opts.integer("warmup-rounds", 2);
            for (int r = 1; r <= rounds; r++) {
                round(bench, opts, rows, "warm-up (discarded) " + r + ": ", 0);
            }
        }

        /** After {@code rampMillis} of replay, raw and decisions at the rate while the replay runs. */
        private static Void measure(
                DecisionLatencyBench bench,
                NoShowReplay replay,
                BenchOptions opts,
                List<LatencyRow> rows,
                long rampMillis)
                throws Exception {
            Thread.sleep(rampMillis);
            int runs = opts.integer("runs", 3);
            for (int r = 0; r < runs; r++) {
                round(bench, opts, rows, "", replay.active());
            }
            return null;
        }

        private static void round(
                DecisionLatencyBench bench, BenchOptions opts, List<LatencyRow> rows, String label, int active)
                throws Exception {
            int rate = opts.integer("rate", 500);
            int seconds = opts.integer("seconds", 10);
            DecisionLatencyBench.Result raw = bench.rawRoundTrip(rate, seconds);
            rows.add(new LatencyRow(active, raw.named(label + raw.name())));
            DecisionLatencyBench.Result decisions = bench.decisions(rate, seconds, false);
            rows.add(new LatencyRow(active, decisions.named(label + decisions.name() + " (lifecycle on)")));
        }
    }

    private static PoolCatalog withGrace(PoolCatalog pools, Duration grace) {
        return new PoolCatalog(pools.pools().stream()
                .map(p -> new Pool(p.id(), p.flavor(), p.resource(), p.capacity(), p.gpuModel(), p.migProfile(), grace))
                .toList());
    }

    private static void row(StringBuilder md, String fleet, ReplayTally.Outcome o) {
        double share = o.gpuHoursBooked() == 0 ? 0 : 100 * o.gpuHoursReturned() / o.gpuHoursBooked();
        md.append(String.format(
                Locale.ROOT,
                "| %s | %d | %d | %s | %d | %.0f | %.0f | %.1f %% | %d | %d | %d | %d | %d | %d | %d |%n",
                fleet,
                o.pods(),
                o.accepted(),
                o.rejected(),
                o.unusedAccepted(),
                o.gpuHoursBooked(),
                o.gpuHoursReturned(),
                share,
                o.released(),
                o.expected(),
                o.missed(),
                o.usedReleased(),
                o.shortReleased(),
                o.borderline(),
                o.warningsUsed()));
        String p = "RESULT noshow." + fleet + ".";
        System.out.printf(Locale.ROOT, "%sbooked_gpu_h %.1f GPU-h%n", p, o.gpuHoursBooked());
        System.out.printf(Locale.ROOT, "%sreturned_gpu_h %.1f GPU-h%n", p, o.gpuHoursReturned());
        System.out.printf(Locale.ROOT, "%sreturned_pct %.2f %%%n", p, share);
        System.out.printf(Locale.ROOT, "%sreleased %d bookings%n", p, o.released());
        System.out.printf(Locale.ROOT, "%sexpected %d bookings%n", p, o.expected());
        System.out.printf(Locale.ROOT, "%sused_released %d bookings%n", p, o.usedReleased());
        System.out.printf(Locale.ROOT, "%scorrect %d%n", p, o.correct() ? 1 : 0);
    }

    private static void latencyTable(StringBuilder md, List<LatencyRow> rows) {
        if (rows.isEmpty()) {
            return;
        }
        md.append("\n### Decisions at a fixed rate with the lifecycle on (openb fleet, during the replay)\n\n")
                .append("Same engine, same broker, while the replay above runs: *active* is the replay's ACTIVE "
                        + "bookings the lifecycle walks at each interval when the run began. Each timed create goes "
                        + "through its tenant's budget stage (no budget set) to the pool's writer, as an HTTP create "
                        + "does (the replay's own bookings are written to the pool's topic directly). 'raw' is the idempotent "
                        + "acks=all produce → read_committed consume of a 300-byte record on the same broker.\n\n")
                .append("| run | active | records | records/s | p50 ms | p99 ms | max ms | JIT ms | GC ms |\n")
                .append("|---|---|---|---|---|---|---|---|---|\n");
        Double raw = null;
        for (LatencyRow row : rows) {
            DecisionLatencyBench.Result r = row.result();
            Histogram h = r.latencyMicros();
            double p99 = h.getValueAtPercentile(99) / 1000.0;
            md.append(String.format(
                    Locale.ROOT,
                    "| %s | %d | %d | %.0f | %.1f | %.1f | %.1f | %d | %d |%n",
                    r.name(),
                    row.activeBefore(),
                    r.count(),
                    r.perSecond(),
                    h.getValueAtPercentile(50) / 1000.0,
                    p99,
                    h.getMaxValue() / 1000.0,
                    r.jvm().jitMillis(),
                    r.jvm().gcMillis()));
            if (r.name().startsWith("warm-up")) {
                continue;
            }
            if (r.name().startsWith("raw")) {
                raw = p99;
                System.out.printf(Locale.ROOT, "RESULT noshow.lifecycle.raw_p99_ms %.1f ms%n", p99);
            } else {
                System.out.printf(Locale.ROOT, "RESULT noshow.lifecycle.fixed_p99_ms %.1f ms%n", p99);
                System.out.printf(Locale.ROOT, "RESULT noshow.lifecycle.active %d bookings%n", row.activeBefore());
                if (raw != null && raw > 0) {
                    System.out.printf(Locale.ROOT, "RESULT noshow.lifecycle.p99_ratio %.2f x%n", p99 / raw);
                }
            }
        }
    }
}
