package io.gpuaas.bench.booking;

import io.gpuaas.bench.BenchOptions;
import io.gpuaas.bench.suite.JvmActivity;
import io.gpuaas.bench.suite.WarmUp;
import io.gpuaas.booking.config.EngineTuning;
import io.gpuaas.testing.kafka.EmbeddedKafka;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.apache.kafka.streams.KafkaStreams;

/**
 * booking-service benchmarks: decision latency at a fixed rate beside the raw Kafka round trip, saturated
 * decisions per second, availability queries over 100,000 future bookings, and the openb trace replay.
 *
 * <pre>
 * java -cp "$(cat bench/target/classpath.txt):bench/target/classes" io.gpuaas.bench.booking.BookingBench \
 *     [--csv ../shared/data/openb-pod-list.csv] [--out bench/results/booking.md] [--rate 500] [--seconds 10] [--runs 3]
 *     [--latency-only false] [--warmup-rounds 5] [--streams commit.interval.ms=20,producer.linger.ms=0,...]
 *     [--security both] [--budget-every 1] [--compare-streams commit.interval.ms=10,poll.ms=10]
 * </pre>
 * The fixed-rate runs go on two brokers in the same JVM, interleaved: one with authentication and ACLs as in
 * production (booking-service's own user), one without ({@code auth off:} rows); {@code --security on|off} keeps one.
 * Before the measured runs, warm-up rounds of the same raw and decision runs (at most {@code --warmup-rounds}, until
 * the JIT has settled) are printed as discarded rows. {@code --compare-streams} starts one more secured broker whose
 * engine runs with those Kafka Streams keys on top of the others, its rows labelled with them, interleaved with the
 * rest (raw, fixed rate and saturated), so a settings change is measured side by side in one run.
 * The engine runs with the service's own settings ({@code EngineTuning.defaults()}); {@code --streams} overrides
 * Kafka Streams keys for experiments, {@code --latency-only true} skips saturation, availability and replay.
 * Every create goes as an HTTP create goes, through its tenant's budget stage; one more run per round on the first
 * broker sends the same creates straight to the pool's topic, to show what that hop costs. With {@code --csv}, the
 * openb replays, the last one with monthly budgets ({@link BudgetReplay}; {@code --budget-every k} replays every k-th
 * pod of it, for a smoke run).
 * <pre>
 * </pre>
 */
public final class BookingBench {

    /** Experiment overrides of the engine settings ({@code --streams}); empty by default. */
    private static final Map<String, String> overrides = new java.util.LinkedHashMap<>();

    /** The settings {@code --compare-streams} measures beside the engine's own; empty by default. */
    private static final Map<String, String> compared = new java.util.LinkedHashMap<>();

    private BookingBench() {}

    public static void main(String[] args) throws Exception {
        BenchOptions opts = BenchOptions.of(args);
        int rate = opts.integer("rate", 500);
        int seconds = opts.integer("seconds", 10);
        int runs = opts.integer("runs", 3);
        int warmUpRounds = opts.integer("warmup-rounds", 5);
        int budgetEvery = opts.integer("budget-every", 1);
        // --latency-only true: just the fixed-rate decision and raw runs (for profiling the decision path)
        boolean latencyOnly = opts.flag("latency-only", false);
        Path out = opts.path("out", "bench/results/booking.md");
        StringBuilder md = new StringBuilder();
        md.append("## booking-service\n\n")
                .append("Measured ")
                .append(Instant.now())
                .append(" on ")
                .append(Runtime.getRuntime().availableProcessors())
                .append(" cores (shared with other builds, noisy), JDK ")
                .append(Runtime.version())
                .append(" (")
                .append(JvmActivity.heapFlags())
                .append(
                        "), broker in the same JVM (EmbeddedKafka, KRaft, 1 node; SASL and ACLs on, and for the 'auth off' "
                                + "rows a second broker without them).\n\n");
        overrides.putAll(BenchOptions.pairs(opts.text("streams", "")));
        compared.putAll(BenchOptions.pairs(opts.text("compare-streams", "")));
        List<Variant> variants = new ArrayList<>();
        try {
            for (boolean secured : BenchOptions.securityVariants(opts.text("security", "both"))) {
                variants.add(Variant.start(secured, overrides, secured ? "" : OPEN));
            }
            if (!compared.isEmpty()) {
                Map<String, String> settings = new java.util.LinkedHashMap<>(overrides);
                settings.putAll(compared);
                variants.add(Variant.start(true, settings, comparedLabel()));
            }
            List<DecisionLatencyBench.Result> rows = new ArrayList<>();
            String warmUp = warmUp(variants, rate, seconds, warmUpRounds, rows);
            // Interleaved, so load from elsewhere on a shared machine falls on both variants alike.
            for (int r = 0; r < runs; r++) {
                for (Variant v : variants) {
                    rows.add(v.named(v.bench().rawRoundTrip(rate, seconds)));
                    rows.add(v.named(v.bench().decisions(rate, seconds, false)));
                }
                Variant first = variants.getFirst();
                rows.add(first.named(first.bench()
                        .decisions(rate, (long) rate * seconds, false, DecisionLatencyBench.Route.DIRECT)));
            }
            for (int r = 0; r < runs && !latencyOnly; r++) {
                rows.add(variants.getFirst().named(variants.getFirst().bench().decisions(2000, 5, true)));
                if (!compared.isEmpty()) {
                    Variant other = variants.getLast();
                    rows.add(other.named(other.bench().decisions(2000, 5, true)));
                }
            }
            latencyTable(md, rows, warmUp);
            System.out.println("broker figures (whole run):\n" + BrokerStats.report());
        } finally {
            variants.forEach(Variant::close);
        }
        if (!latencyOnly) {
            availability(md);
        }
        if (opts.has("csv") && !latencyOnly) {
            replay(md, Path.of(opts.text("csv").orElseThrow()), rate, budgetEvery);
        }
        md.append(
                        "\nReproduce (bench/ builds once every service module is installed; until then compile the bench classes "
                                + "with javac against booking-service's and test-support's classpaths): `")
                .append(command(opts))
                .append("`\n");
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, md.toString());
        System.out.println(md);
    }

    /**
     * Full-size rounds, raw then decisions as in a measured run, until the JIT compiled for under a tenth of a round,
     * at most {@code max}; their rows go first in the table, marked as discarded. At 500/s the per-command code needs
     * about 10 s of commands to reach C2's invocation thresholds: after the former 5-s warm-up the C2 compiler was
     * still busy through all of run 1 (JFR), and run 1's p99 was 1.5 times runs 2 and 3, for the raw round trip too.
     * The transaction path (broker and Streams, once per commit, ~60/s) is the slowest: JFR still saw ~200 of its
     * methods first reach C2 in the fourth decision run, hence up to 5 rounds.
     *
     * @return the sentence saying how the warm-up ended
     */
    private static String warmUp(
            List<Variant> variants, int rate, int seconds, int max, List<DecisionLatencyBench.Result> rows)
            throws Exception {
        return WarmUp.run(max, round -> {
                    String label = "warm-up (discarded) " + round + ": ";
                    for (Variant v : variants) {
                        DecisionLatencyBench.Result raw = v.named(v.bench().rawRoundTrip(rate, seconds));
                        rows.add(raw.named(label + raw.name()));
                        DecisionLatencyBench.Result decisions =
                                v.named(v.bench().decisions(rate, seconds, false));
                        rows.add(decisions.named(label + decisions.name()));
                    }
                })
                .describe("the same raw and decision runs");
    }

    /**
     * One broker with its engine. Secured: SASL (booking-service as a SCRAM-SHA-512 user) and the StandardAuthorizer
     * with exactly booking-service's ACLs, as production runs; its rows keep the plain names. Open: PLAINTEXT and no
     * authorizer, its rows labelled {@value #OPEN}, to show what authentication and authorization cost.
     */
    private record Variant(String label, EmbeddedKafka broker, DecisionLatencyBench bench, KafkaStreams engine) {
        static Variant start(boolean secured, Map<String, String> settings, String label) throws Exception {
            EmbeddedKafka broker = secured
                    ? EmbeddedKafka.start()
                    : EmbeddedKafka.builder().withoutSecurity().start();
            DecisionLatencyBench bench = new DecisionLatencyBench(broker, settings);
            return new Variant(label, broker, bench, bench.startEngine());
        }

        DecisionLatencyBench.Result named(DecisionLatencyBench.Result result) {
            return result.named(label + result.name());
        }

        void close() {
            engine.close(java.time.Duration.ofSeconds(10));
            broker.close();
        }
    }

    /** The label prefix of the rows measured without authentication. */
    static final String OPEN = "auth off: ";

    /** The label prefix of the rows whose engine ran with {@code --compare-streams}, e.g. "with commit.interval.ms 10: ". */
    static String comparedLabel() {
        StringBuilder out = new StringBuilder("with ");
        compared.forEach((k, v) ->
                out.append(out.length() > 5 ? ", " : "").append(k).append(' ').append(v));
        return out.append(": ").toString();
    }

    private static void latencyTable(StringBuilder md, List<DecisionLatencyBench.Result> rows, String warmUp) {
        md.append("### Decisions through Kafka (command → committed decision read back)\n\n")
                .append("Open loop: latency counts from the intended send time. Each create takes the path an HTTP "
                        + "create takes: a HoldCreate keyed by tenant on gpuaas.budget-commands, which the "
                        + "engine's budget stage (no budget set) forwards to the pool's writer on "
                        + "gpuaas.booking-commands; '" + DecisionLatencyBench.DIRECT_LABEL + "' rows write the "
                        + "same creates to booking-commands themselves (no HTTP create does), to show the "
                        + "stage's cost. Exactly-once Streams with the service's "
                        + "engine settings (" + engineSettings()
                        + "), read_committed readers. 'raw' is an idempotent acks=all produce → read_committed consume "
                        + "of a 300-byte record on the same broker in the same run (the baseline).\n\n")
                .append(warmUp)
                .append("\n\n")
                .append("| run | records | seconds | records/s | p50 ms | p99 ms | max ms | JIT ms | GC ms |\n"
                        + "|---|---|---|---|---|---|---|---|---|\n");
        for (DecisionLatencyBench.Result r : rows) {
            md.append(String.format(
                    Locale.ROOT,
                    "| %s | %d | %d |%n",
                    r.leadingCells(),
                    r.jvm().jitMillis(),
                    r.jvm().gcMillis()));
        }
        stages(md, rows);
        summary(md, rows);
    }

    /** Where a decision's time goes: up to the task processing it, and from there to the committed read. */
    private static void stages(StringBuilder md, List<DecisionLatencyBench.Result> rows) {
        md.append("\nStages of the same decisions: *to task* = intended send → processed by the pool's decision task "
                + "(produce; the budget stage's task and its forward, except on the direct rows; task fetch); *to read* = processed → committed decision read (wait for the commit, the commit, "
                + "transaction markers, reader fetch).\n\n| run | to task p50 | to task p99 | to read p50 | to read p99 | engine |\n"
                + "|---|---|---|---|---|---|\n");
        for (DecisionLatencyBench.Result r : rows) {
            if (r.toProcessedMicros() == null) {
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

    private static String engineSettings() {
        Map<String, String> props =
                new java.util.LinkedHashMap<>(EngineTuning.defaults().streamsProperties());
        props.putAll(overrides);
        StringBuilder out = new StringBuilder();
        props.forEach((k, v) ->
                out.append(out.isEmpty() ? "" : ", ").append(k).append(' ').append(v));
        return out.toString();
    }

    /** {@code --streams key=value,key=value}: extra Kafka Streams settings for experiments (default none). */
    /** The targets against this run: p99 ≤ 50 ms at 500/s, ≥ 1,000 decisions/s. */
    private static void summary(StringBuilder md, List<DecisionLatencyBench.Result> rows) {
        List<DecisionLatencyBench.Result> fixed =
                rows.stream().filter(r -> r.name().startsWith("decisions at")).toList();
        List<DecisionLatencyBench.Result> raw =
                rows.stream().filter(r -> r.name().startsWith("raw")).toList();
        List<DecisionLatencyBench.Result> saturated = rows.stream()
                .filter(r -> r.name().startsWith("decisions, saturated"))
                .toList();
        md.append(String.format(
                Locale.ROOT,
                "%nAt the fixed rate, decision p99 ranged %.0f–%.0f ms over %d runs (target ≤ 50 ms: "
                        + "met in %d) against a raw round-trip p99 of %.0f–%.0f ms in the same run. Saturated: %.0f–%.0f "
                        + "decisions/s (target ≥ 1,000).%n%n",
                min(fixed, 99),
                max(fixed, 99),
                fixed.size(),
                fixed.stream()
                        .filter(r -> r.latencyMicros().getValueAtPercentile(99) <= 50_000)
                        .count(),
                min(raw, 99),
                max(raw, 99),
                rate(saturated, true),
                rate(saturated, false)));
        List<DecisionLatencyBench.Result> direct = rows.stream()
                .filter(r -> r.name().startsWith(DecisionLatencyBench.DIRECT_LABEL + "decisions at"))
                .toList();
        if (!direct.isEmpty()) {
            md.append(String.format(
                    Locale.ROOT,
                    "The same creates written straight to the pool's topic, skipping the budget stage's hop (no HTTP "
                            + "create does): decision p99 %.0f–%.0f ms over %d runs.%n%n",
                    min(direct, 99),
                    max(direct, 99),
                    direct.size()));
        }
        if (!compared.isEmpty()) {
            comparison(md, fixed, raw, saturated, rows);
        }
        List<DecisionLatencyBench.Result> open = rows.stream()
                .filter(r -> r.name().startsWith(OPEN + "decisions at"))
                .toList();
        List<DecisionLatencyBench.Result> openRaw =
                rows.stream().filter(r -> r.name().startsWith(OPEN + "raw")).toList();
        if (!open.isEmpty()) {
            md.append(String.format(
                    Locale.ROOT,
                    "Authentication on (SASL SCRAM-SHA-512, the StandardAuthorizer with "
                            + "booking-service's ACLs) beside off (PLAINTEXT, no authorizer), interleaved in this run: "
                            + "decision p99 %.0f–%.0f ms on, %.0f–%.0f ms off; raw round-trip p99 %.0f–%.0f ms on, "
                            + "%.0f–%.0f ms off.%n%n",
                    min(fixed, 99),
                    max(fixed, 99),
                    min(open, 99),
                    max(open, 99),
                    min(raw, 99),
                    max(raw, 99),
                    min(openRaw, 99),
                    max(openRaw, 99)));
        }
    }

    /** The {@code --compare-streams} engine beside the engine's own settings, both secured, interleaved. */
    private static void comparison(
            StringBuilder md,
            List<DecisionLatencyBench.Result> fixed,
            List<DecisionLatencyBench.Result> raw,
            List<DecisionLatencyBench.Result> saturated,
            List<DecisionLatencyBench.Result> rows) {
        String label = comparedLabel();
        List<DecisionLatencyBench.Result> other = rows.stream()
                .filter(r -> r.name().startsWith(label + "decisions at"))
                .toList();
        List<DecisionLatencyBench.Result> otherRaw =
                rows.stream().filter(r -> r.name().startsWith(label + "raw")).toList();
        List<DecisionLatencyBench.Result> otherSaturated = rows.stream()
                .filter(r -> r.name().startsWith(label + "decisions, saturated"))
                .toList();
        md.append(String.format(
                Locale.ROOT,
                "The engine's settings beside the same engine %s(a broker of its own, secured, interleaved in this "
                        + "run): decision p99 %.0f–%.0f ms beside %.0f–%.0f ms; raw round-trip p99 %.0f–%.0f ms beside "
                        + "%.0f–%.0f ms; saturated %.0f–%.0f decisions/s beside %.0f–%.0f.%n%n",
                label.substring(0, label.length() - 2) + " ",
                min(fixed, 99),
                max(fixed, 99),
                min(other, 99),
                max(other, 99),
                min(raw, 99),
                max(raw, 99),
                min(otherRaw, 99),
                max(otherRaw, 99),
                rate(saturated, true),
                rate(saturated, false),
                rate(otherSaturated, true),
                rate(otherSaturated, false)));
    }

    /** The lowest (or highest) records per second among {@code rows}; 0 when there are none. */
    private static double rate(List<DecisionLatencyBench.Result> rows, boolean lowest) {
        java.util.stream.DoubleStream rates = rows.stream().mapToDouble(DecisionLatencyBench.Result::perSecond);
        return (lowest ? rates.min() : rates.max()).orElse(0);
    }

    private static double min(List<DecisionLatencyBench.Result> rows, double percentile) {
        return rows.stream()
                .mapToDouble(r -> r.latencyMicros().getValueAtPercentile(percentile) / 1000.0)
                .min()
                .orElse(0);
    }

    private static double max(List<DecisionLatencyBench.Result> rows, double percentile) {
        return rows.stream()
                .mapToDouble(r -> r.latencyMicros().getValueAtPercentile(percentile) / 1000.0)
                .max()
                .orElse(0);
    }

    private static void availability(StringBuilder md) {
        AvailabilityBench.Result r = new AvailabilityBench().run(100_000, 5_000);
        Histogram h = r.queryMicros();
        md.append("### Availability queries with 100,000 future bookings\n\n")
                .append(String.format(
                        Locale.ROOT,
                        "%d confirmed bookings over 85 days on 4 pools sized for 10,000 GPUs "
                                + "(built through the real decider in %d ms; the h200 timeline has %d breakpoints). Query: 7 days in "
                                + "hourly steps (168 slots) plus a first-fit search, computed as the endpoint does, without HTTP.%n%n",
                        r.bookings(),
                        r.buildMillis(),
                        r.breakpointsH200()))
                .append("| queries | p50 ms | p90 ms | p99 ms | max ms |\n|---|---|---|---|---|\n")
                .append(String.format(
                        Locale.ROOT,
                        "| %d | %.2f | %.2f | %.2f | %.2f |%n%n",
                        h.getTotalCount(),
                        h.getValueAtPercentile(50) / 1000.0,
                        h.getValueAtPercentile(90) / 1000.0,
                        h.getValueAtPercentile(99) / 1000.0,
                        h.getMaxValue() / 1000.0));
    }

    private static void replay(StringBuilder md, Path csv, int rate, int budgetEvery) throws Exception {
        md.append("### Replay of the openb pod list (Weng et al., USENIX ATC '23)\n\n");
        replayScenario(
                md,
                csv,
                OpenbReplay.POOLS,
                "openb's 6,212 GPUs as 5,812 whole H200s + 400 partitioned " + "(700×1g, 450×2g, 300×3g)");
        replayScenario(
                md,
                csv,
                io.gpuaas.events.pool.PoolCatalog.load(java.util.Optional.empty()),
                "the local stack's default 16 H200s (8 whole, 14×1g, 9×2g, 6×3g): the same demand on a small fleet");
        WaitlistReplay.report(md, csv);
        BudgetReport.append(md, BudgetReplay.run(csv, rate, budgetEvery, overrides));
    }

    private static void replayScenario(
            StringBuilder md, Path csv, io.gpuaas.events.pool.PoolCatalog pools, String fleet) throws Exception {
        OpenbReplay.Result r = new OpenbReplay(pools).run(csv);
        md.append("#### ")
                .append(fleet)
                .append("\n\n")
                .append(String.format(
                        Locale.ROOT,
                        "%d GPU pods as bookings [creation, deletion) over %.0f hours, decided in "
                                + "creation order. gpu_milli ≤ 142 → 1g.18gb, ≤ 285 → 2g.35gb, ≤ 428 → 3g.71gb, else whole GPUs; "
                                + "num_gpu units. Accepted %d, rejected %s.%n%n",
                        r.gpuPods(),
                        r.horizonHours(),
                        r.accepted(),
                        r.rejectedByReason()))
                .append(
                        "| pool | accepted | rejected | booked unit-hours | capacity unit-hours | booked utilization |\n")
                .append("|---|---|---|---|---|---|\n");
        r.pools()
                .forEach((pool, s) -> md.append(String.format(
                        Locale.ROOT,
                        "| %s | %d | %d | %.0f | %.0f | %.1f %% |%n",
                        pool,
                        s.accepted(),
                        s.rejected(),
                        s.bookedUnitHours(),
                        s.capacityUnitHours(),
                        100.0 * s.bookedUnitHours() / s.capacityUnitHours())));
        md.append('\n');
    }

    private static String command(BenchOptions opts) {
        StringBuilder c = new StringBuilder(
                "./mvnw -B -o -q -pl booking-service install -DskipTests && ./mvnw -B -o -q -pl bench "
                        + "package && /usr/lib/jvm/temurin-25-jdk-amd64/bin/java " + JvmActivity.heapFlags()
                        + " -cp \"$(cat bench/target/classpath.txt):bench/target/classes\" io.gpuaas.bench.booking.BookingBench");
        return c.append(opts.arguments()).toString();
    }
}
