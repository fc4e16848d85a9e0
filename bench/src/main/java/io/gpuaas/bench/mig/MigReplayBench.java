package io.gpuaas.bench.mig;

import io.gpuaas.bench.BenchOptions;
import io.gpuaas.events.geometry.GpuGeometry;
import io.gpuaas.events.geometry.GpuGeometryCatalog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;

/**
 * Issue 27, flexible MIG pools: replays the openb pod list as book-now bookings on H200 fleets laid out statically
 * (today's local layout, the mix a search picks on the trace's first half, the best mix knowing the second half) and
 * flexibly (booking-service's {@code FleetPlacements} + {@code RoomMaker}), judged on the share of GPU-hours the
 * second half asked that each accepted; counts the flexible fleets' re-layouts; times one {@code place()} on a
 * 1,000-GPU flexible fleet beside a static first fit. The targets are judged on the replay that refuses, as
 * booking-service does, every pod longer than its {@code max-duration} ({@code policy}); the replay that lets those
 * pods be held ({@code trace}) is shown beside it.
 *
 * <p>Usage: {@code MigReplayBench --csv openb-pod-list.csv [--gpus 32,64] [--parts 8] [--cost-gpus 1000]
 * [--cost-fill 0.9] [--cost-warmup 5000] [--cost-bookings 3000] [--cost-rounds 3] [--cost-load 1.2] [--out report.md]}. Prints
 * Markdown and {@code RESULT key value unit} lines; with {@code --out} the Markdown also goes to that file. Without
 * the CSV it prints a {@code PROBLEM} line saying so and exits 0.
 */
public final class MigReplayBench {

    private static final String MODEL = "NVIDIA H200";

    private MigReplayBench() {}

    /**
     * How a replay decides the same asks: {@code policy} refuses before any placement, on every fleet alike, the asks
     * longer than booking-service's {@code max-duration} ({@link MaxDuration#shipped}); {@link MaxDuration#NONE} lets
     * every ask be held for its whole window. Every ask counts as asked either way.
     */
    record Variant(String key, String label, List<Ask> asks, MaxDuration policy) {}

    /** One way of cutting the trace in two: the asks starting before {@code at} and those from it on. */
    record Split(String key, String label, long at) {}

    /**
     * Everything replayed on one fleet size for one variant. The arrays are one replay's decisions, one per ask, read
     * by index and never compared or hashed.
     */
    @SuppressWarnings("ArrayRecordComponent")
    record Size(
            Variant variant,
            int gpus,
            MixSearch.Mix today,
            boolean[] todayOk,
            List<MixSearch.Mix> mixes,
            List<boolean[]> mixOk,
            boolean[] flexibleOk,
            FlexibleFleet flexible,
            double flexibleSeconds) {}

    /** What one split comes to on one size. */
    record Judged(
            Split split,
            Size size,
            Replay.Tally today,
            int firstHalfPick,
            Replay.Tally firstHalfPickOnFirst,
            Replay.Tally firstHalfPickOnSecond,
            int ties,
            double tiesMin,
            double tiesMax,
            int bestPick,
            Replay.Tally best,
            Replay.Tally flexible) {

        String where() {
            return size.variant().key() + " | " + split.key() + " | " + size.gpus();
        }
    }

    public static void main(String[] args) throws Exception {
        BenchOptions o = BenchOptions.of(args);
        Path csv = o.path("csv", "/work/shared/data/openb-pod-list.csv");
        Path out = o.text("out").map(Path::of).orElse(null);
        if (!Files.isRegularFile(csv)) {
            String why = "mig-replay: skipped: the openb pod list is not at " + csv + " (the bench reads it from the"
                    + " shared data folder, ../shared/data beside the project; pass --csv PATH)";
            System.out.println("PROBLEM " + why);
            write(out, "# Flexible MIG placement on the openb trace (issue 27)\n\nNot measured: " + why + ".\n");
            return;
        }
        GpuGeometry h200 = GpuGeometryCatalog.shipped().forModel(MODEL).orElseThrow();
        StaticGpu.SEARCHED.forEach(k -> k.checkedOn(h200));
        StaticGpu.TODAY.forEach(k -> k.checkedOn(h200));
        int[] sizes = Arrays.stream(o.text("gpus", "32,64").split(","))
                .mapToInt(Integer::parseInt)
                .toArray();
        int parts = o.integer("parts", 8);
        List<Ask> asks = OpenbAsks.read(csv, h200);
        MaxDuration policy = MaxDuration.shipped();
        List<Variant> variants = List.of(
                new Variant(
                        "policy",
                        "a pod longer than booking-service's `max-duration` (" + policy.describe() + ", the default"
                                + " of `BookingSettings`) is refused before any placement, on every fleet alike, as"
                                + " its decider refuses such a booking (`POLICY_MAX_DURATION`): it never holds"
                                + " capacity",
                        asks,
                        policy),
                new Variant(
                        "trace",
                        "every pod may be held for its whole window in the trace, as if there were no such limit",
                        asks,
                        MaxDuration.NONE));

        StringBuilder md = new StringBuilder("# Flexible MIG placement on the openb trace (issue 27)\n\n");
        long traceStart = asks.getFirst().start();
        long traceEnd = asks.stream().mapToLong(Ask::end).max().orElseThrow();
        List<Split> splits = List.of(
                new Split(
                        "arrivals",
                        "half the pods arrived",
                        asks.get(asks.size() / 2).start()),
                new Split("span", "middle of the span", traceStart + (traceEnd - traceStart) / 2));
        describeTrace(md, csv, variants, h200, splits, traceStart, traceEnd, parts);

        List<Size> replayed = new ArrayList<>();
        for (Variant v : variants) {
            for (int gpus : sizes) {
                replayed.add(replay(v, h200, gpus, parts));
            }
        }
        List<Judged> judged = new ArrayList<>();
        for (Size size : replayed) {
            for (Split split : splits) {
                judged.add(judge(h200, split, size, traceStart));
            }
        }
        shares(md, judged);
        layouts(md, judged);
        byProfile(md, h200, splits.getFirst(), replayed, judged);
        MigTargets.write(md, judged, h200.computeSlices());
        relayouts(md, replayed, splits, traceEnd);

        int costGpus = o.integer("cost-gpus", 1000);
        MixSearch.Mix costMix =
                judged.getFirst().size().mixes().get(judged.getFirst().firstHalfPick());
        PlacementCost.Result cost = PlacementCost.measure(
                asks,
                h200,
                costGpus,
                costMix.scaled(costGpus),
                o.decimal("cost-load", 1.2),
                o.decimal("cost-fill", 0.9),
                o.integer("cost-warmup", 5000),
                o.integer("cost-bookings", 3000),
                o.integer("cost-rounds", 3),
                27L);
        costTable(md, cost, judged.getFirst().where());

        String report = md.toString();
        System.out.println(report);
        write(out, report);
        results(judged, replayed, splits, traceEnd, cost);
    }

    private static Size replay(Variant v, GpuGeometry h200, int gpus, int parts) {
        long t0 = System.nanoTime();
        MixSearch.Mix today = MixSearch.today(gpus);
        boolean[] todayOk = Replay.run(today.fleet(), v.asks(), v.policy());
        List<MixSearch.Mix> mixes = MixSearch.mixes(StaticGpu.SEARCHED, gpus, parts);
        List<boolean[]> mixOk = new ArrayList<>();
        for (MixSearch.Mix m : mixes) {
            mixOk.add(Replay.run(m.fleet(), v.asks(), v.policy()));
        }
        long t1 = System.nanoTime();
        FlexibleFleet flexible = new FlexibleFleet(h200, gpus, true);
        boolean[] flexibleOk = Replay.run(flexible, v.asks(), v.policy());
        long t2 = System.nanoTime();
        System.err.printf(
                Locale.ROOT,
                "%s, %d GPUs: today's layout and %d static mixes replayed in %.1f s, the flexible fleet in %.1f s%n",
                v.key(),
                gpus,
                mixes.size(),
                (t1 - t0) / 1e9,
                (t2 - t1) / 1e9);
        return new Size(v, gpus, today, todayOk, mixes, mixOk, flexibleOk, flexible, (t2 - t1) / 1e9);
    }

    private static Judged judge(GpuGeometry h200, Split split, Size size, long traceStart) {
        List<Ask> asks = size.variant().asks();
        int c = h200.computeSlices();
        long end = Long.MAX_VALUE;
        int pick = -1;
        double pickShare = -2;
        int best = -1;
        double bestShare = -2;
        double[] first = new double[size.mixes().size()];
        double[] second = new double[size.mixes().size()];
        for (int i = 0; i < size.mixes().size(); i++) {
            boolean[] ok = size.mixOk().get(i);
            // A first half with no asks (NaN) teaches nothing: every mix ties there.
            first[i] = orNone(
                    Replay.tally(asks, ok, traceStart, split.at(), null, c).percent());
            second[i] = orNone(Replay.tally(asks, ok, split.at(), end, null, c).percent());
            if (first[i] > pickShare) { // ties keep the earliest mix: the most whole GPUs
                pick = i;
                pickShare = first[i];
            }
            if (second[i] > bestShare) {
                best = i;
                bestShare = second[i];
            }
        }
        int ties = 0;
        double tiesMin = Double.MAX_VALUE;
        double tiesMax = -1;
        for (int i = 0; i < first.length; i++) {
            if (first[i] == pickShare) {
                ties++;
                tiesMin = Math.min(tiesMin, second[i]);
                tiesMax = Math.max(tiesMax, second[i]);
            }
        }
        return new Judged(
                split,
                size,
                Replay.tally(asks, size.todayOk(), split.at(), end, null, c),
                pick,
                Replay.tally(asks, size.mixOk().get(pick), traceStart, split.at(), null, c),
                Replay.tally(asks, size.mixOk().get(pick), split.at(), end, null, c),
                ties,
                tiesMin,
                tiesMax,
                best,
                Replay.tally(asks, size.mixOk().get(best), split.at(), end, null, c),
                Replay.tally(asks, size.flexibleOk(), split.at(), end, null, c));
    }

    private static double orNone(double percent) {
        return Double.isNaN(percent) ? -1 : percent;
    }

    /** "12.3 %", or "none asked" for a tally of nothing. */
    static String pct(Replay.Tally t) {
        return Double.isNaN(t.percent()) ? "none asked" : String.format(Locale.ROOT, "%.1f %%", t.percent());
    }

    private static void describeTrace(
            StringBuilder md,
            Path csv,
            List<Variant> variants,
            GpuGeometry h200,
            List<Split> splits,
            long traceStart,
            long traceEnd,
            int parts) {
        List<Ask> asks = variants.getFirst().asks();
        Map<String, int[]> byProfile = new TreeMap<>();
        for (Ask a : asks) {
            int[] n = byProfile.computeIfAbsent(a.profile(), p -> new int[2]);
            n[0]++;
            n[1] += a.quantity() > 1 ? 1 : 0;
        }
        md.append(String.format(
                Locale.ROOT,
                "Trace: `%s` (Alibaba openb pod list, Weng et al., USENIX ATC '23; read from the shared data folder "
                        + "`../shared/data`, never copied into the project). %,d GPU pods over %.1f days as book-now "
                        + "bookings on %s fleets (geometry from `%s`): %s. Pods without a GPU are left out.%n%n",
                csv,
                asks.size(),
                (traceEnd - traceStart) / 86_400.0,
                MODEL,
                GpuGeometryCatalog.RESOURCE,
                byProfile.entrySet().stream()
                        .map(e -> e.getValue()[0] + " " + e.getKey()
                                + (e.getValue()[1] > 0 ? " (" + e.getValue()[1] + " of several GPUs)" : ""))
                        .collect(Collectors.joining(", "))));
        md.append("- **Units.** One GPU or less becomes the smallest MIG profile with at least that share of the"
                + " GPU's 7 compute slices (`gpu_milli` ≤ 142 → 1g.18gb, ≤ 285 → 2g.35gb, ≤ 428 → 3g.71gb,"
                + " ≤ 571 → 4g.71gb; `+me` profiles left out); more, or a share only 7g.141gb holds, is a whole GPU;"
                + " several GPUs are that many whole GPUs, all or none. A unit is only ever given its own profile,"
                + " never a larger instance instead.\n"
                + "- **Windows.** creation → deletion, in trace seconds, not rounded to booking-service's 15-min"
                + " alignment; a pod without a deletion time runs to the trace's end. Every booking starts when it"
                + " is made, in creation order.\n"
                + "- **Measure.** GPU-hours = units × (compute slices / 7) × hours; the share is accepted over asked"
                + " GPU-hours of the pods created in the judged (second) half. Pods created before the cut hold what"
                + " they were given into it.\n"
                + "- **Static layouts** are set up once and never change: each GPU is one kind, each instance a slot"
                + " holding one unit of its profile at a time, first fit in GPU order, never repacked. *Today's*:"
                + " half the GPUs whole, the rest split 2:3:3 between 7×1g.18gb, 3×2g.35gb and 2×3g.71gb GPUs"
                + " (deploy/local's default pools: one profile per MIG GPU, as many as fit); it has no 4g.71gb. The"
                + " search: every mix giving each of whole, 7×1g.18gb, 3×2g.35gb+1g.18gb, 2×3g.71gb and"
                + " 4g.71gb+3g.71gb a whole number of " + parts + "ths of the fleet ("
                + MixSearch.mixes(StaticGpu.SEARCHED, parts, parts).size() + " mixes). *First half*: the mix"
                + " accepting the largest share of the first half (ties: the one with the most whole GPUs, then"
                + " the most of the next kind in that list), judged on the second. *Best*: the mix accepting the"
                + " largest share of the second half, knowing it.\n"
                + "- **Flexible**: booking-service's `FleetPlacements.place`, and `RoomMaker` after a refusal (it"
                + " may move one booking that has not started; with book-now bookings every placed booking has"
                + " started, so it finds nothing to move).\n");
        md.append("- **Splits.** The trace is cut at an instant; the pods created before it are the first half.");
        for (Split s : splits) {
            long before = asks.stream().filter(a -> a.start() < s.at()).count();
            md.append(String.format(
                    Locale.ROOT,
                    " *%s* (`%s`): day %.1f, %,d pods before, %,d from it on.",
                    s.label(),
                    s.key(),
                    s.at() / 86_400.0,
                    before,
                    asks.size() - before));
        }
        md.append(" The middle in time leaves before the cut only the few long-running pods of the trace's first"
                + " 110 quiet days, so the search learns almost nothing there (many mixes tie); the instant by which"
                + " half the pods had arrived was chosen, before any result was seen, as the split the targets are"
                + " judged on. Both are shown.\n");
        Variant policy = variants.getFirst();
        List<Ask> refused = asks.stream().filter(policy.policy()::refuses).toList();
        int c = h200.computeSlices();
        md.append(String.format(
                Locale.ROOT,
                "- **Windows compared** (column *windows*). Every GPU pod is asked in both, and its GPU-hours count in"
                        + " the half it was created in, on every fleet alike. `%s`: %s. These are %,d pods; by split,"
                        + " how many were created before the cut and after, and their share of that half's asked"
                        + " GPU-hours, which no fleet accepts:",
                policy.key(),
                policy.label(),
                refused.size()));
        for (Split s : splits) {
            md.append(String.format(
                    Locale.ROOT,
                    " `%s` %,d before (%.1f %%), %,d after (%.1f %%);",
                    s.key(),
                    refused.stream().filter(a -> a.start() < s.at()).count(),
                    100 * hours(refused, Long.MIN_VALUE, s.at(), c) / hours(asks, Long.MIN_VALUE, s.at(), c),
                    refused.stream().filter(a -> a.start() >= s.at()).count(),
                    100 * hours(refused, s.at(), Long.MAX_VALUE, c) / hours(asks, s.at(), Long.MAX_VALUE, c)));
        }
        md.setLength(md.length() - 1);
        md.append(String.format(
                Locale.ROOT,
                ". `%s`: %s.%n%n",
                variants.get(1).key(),
                variants.get(1).label()));
    }

    /** GPU-hours asked by the asks created in {@code [from, to)}. */
    private static double hours(List<Ask> asks, long from, long to, int gpuCompute) {
        return asks.stream()
                .filter(a -> a.start() >= from && a.start() < to)
                .mapToDouble(a -> a.gpuHours(gpuCompute))
                .sum();
    }

    private static void shares(StringBuilder md, List<Judged> judged) {
        md.append("## Share of the second half's asked GPU-hours accepted\n\n"
                + "| windows | split | H200s | today's static layout | static chosen on the first half | best static"
                + " (knowing the second half) | flexible | flexible − first-half static | flexible − best static |\n"
                + "|---|---|---|---|---|---|---|---|---|\n");
        for (Judged j : judged) {
            double flex = j.flexible().percent();
            md.append(String.format(
                    Locale.ROOT,
                    "| %s | %.1f %% | %.1f %% | %.1f %% | %.1f %% | %+.1f points | %+.1f points |%n",
                    j.where(),
                    j.today().percent(),
                    j.firstHalfPickOnSecond().percent(),
                    j.best().percent(),
                    flex,
                    flex - j.firstHalfPickOnSecond().percent(),
                    flex - j.best().percent()));
        }
        md.append('\n');
    }

    private static void layouts(StringBuilder md, List<Judged> judged) {
        md.append("""
                ### The static layouts

                | windows | split | H200s | layout | GPUs | first half | second half |
                |---|---|---|---|---|---|---|
                """);
        for (Judged j : judged) {
            MixSearch.Mix pick = j.size().mixes().get(j.firstHalfPick());
            MixSearch.Mix best = j.size().mixes().get(j.bestPick());
            String ties = j.ties() > 1
                    ? String.format(
                            Locale.ROOT,
                            " (%d mixes tie on the first half; on the second they give %.1f–%.1f %%)",
                            j.ties(),
                            j.tiesMin(),
                            j.tiesMax())
                    : "";
            md.append(String.format(
                    Locale.ROOT,
                    "| %s | today's | %s | — | %.1f %% |%n",
                    j.where(),
                    j.size().today().describe(),
                    j.today().percent()));
            md.append(String.format(
                    Locale.ROOT,
                    "| %s | chosen on the first half%s | %s | %s | %.1f %% |%n",
                    j.where(),
                    ties,
                    pick.describe(),
                    pct(j.firstHalfPickOnFirst()),
                    j.firstHalfPickOnSecond().percent()));
            md.append(String.format(
                    Locale.ROOT,
                    "| %s | best knowing the second half | %s | — | %.1f %% |%n",
                    j.where(),
                    best.describe(),
                    j.best().percent()));
        }
        md.append('\n');
    }

    private static void byProfile(
            StringBuilder md, GpuGeometry h200, Split split, List<Size> sizes, List<Judged> judged) {
        List<String> profiles = sizes.getFirst().variant().asks().stream()
                .map(Ask::profile)
                .distinct()
                .sorted()
                .toList();
        md.append("### By unit, split `")
                .append(split.key())
                .append("`: share of the second half's GPU-hours accepted\n\n| windows | H200s | fleet |");
        profiles.forEach(p -> md.append(' ').append(p).append(" |"));
        md.append("\n|---|---|---|").append("---|".repeat(profiles.size())).append('\n');
        for (Size size : sizes) {
            List<Ask> asks = size.variant().asks();
            Judged j = judged.stream()
                    .filter(x -> x.split().equals(split) && x.size().equals(size))
                    .findFirst()
                    .orElseThrow();
            md.append("| ")
                    .append(size.variant().key())
                    .append(" | ")
                    .append(size.gpus())
                    .append(" | GPU-hours asked |");
            for (String p : profiles) {
                Replay.Tally all = Replay.tally(
                        asks, new boolean[asks.size()], split.at(), Long.MAX_VALUE, p, h200.computeSlices());
                md.append(String.format(Locale.ROOT, " %,.0f |", all.askedHours()));
            }
            md.append('\n');
            Map<String, boolean[]> fleets = new LinkedHashMap<>();
            fleets.put("today's static", size.todayOk());
            fleets.put("static chosen on the first half", size.mixOk().get(j.firstHalfPick()));
            fleets.put("best static", size.mixOk().get(j.bestPick()));
            fleets.put("flexible", size.flexibleOk());
            fleets.forEach((name, ok) -> {
                md.append("| ")
                        .append(size.variant().key())
                        .append(" | ")
                        .append(size.gpus())
                        .append(" | ")
                        .append(name)
                        .append(" |");
                for (String p : profiles) {
                    double pct = Replay.tally(asks, ok, split.at(), Long.MAX_VALUE, p, h200.computeSlices())
                            .percent();
                    md.append(String.format(Locale.ROOT, " %.1f %% |", pct));
                }
                md.append('\n');
            });
        }
        md.append('\n');
    }

    private static void relayouts(StringBuilder md, List<Size> sizes, List<Split> splits, long traceEnd) {
        md.append("## Re-layouts of the flexible fleets\n\n"
                + "A GPU is **re-laid out** at an instant when a unit beginning then needs a set-up the GPU does not"
                + " have: a mode change (MIG ↔ whole GPU), or a MIG instance whose memory slices overlap an"
                + " instance of another profile or start set up before (which is destroyed). Instances stay set up"
                + " after their booking ends, so a unit landing on an idle instance of its own profile and start"
                + " reuses it; an instance created on slices nothing was set up on is no re-layout. Several units"
                + " beginning on one GPU at one instant count once; every GPU starts in non-MIG mode. *Per GPU per"
                + " day* = re-layouts at instants in the judged half / (GPUs × days of the judged half); *busiest"
                + " GPU-day* = the most one GPU had in one trace day of it. Static layouts never change.\n\n"
                + "| windows | split | H200s | days judged | re-layouts | per GPU per day | busiest GPU-day |"
                + " instances created (whole replay) | refused (whole replay; of them for `max-duration`) |"
                + " placed thanks to RoomMaker |"
                + " replay s |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (Size size : sizes) {
            long policyRefused = size.variant().asks().stream()
                    .filter(size.variant().policy()::refuses)
                    .count();
            for (Split s : splits) {
                LayoutChanges ch = size.flexible().changes();
                double days = (traceEnd - s.at()) / 86_400.0;
                long n = ch.relayouts(s.at(), traceEnd + 1);
                md.append(String.format(
                        Locale.ROOT,
                        "| %s | %s | %d | %.1f | %,d | %.2f | %d | %,d | %,d of %,d (%,d) | %d | %.1f |%n",
                        size.variant().key(),
                        s.key(),
                        size.gpus(),
                        days,
                        n,
                        n / (size.gpus() * days),
                        ch.busiestGpuDay(s.at(), traceEnd + 1),
                        ch.created(),
                        size.flexible().refused() + policyRefused,
                        size.variant().asks().size(),
                        policyRefused,
                        size.flexible().rescued(),
                        size.flexibleSeconds()));
            }
        }
        md.append('\n');
    }

    private static void costTable(StringBuilder md, PlacementCost.Result cost, String mixFrom) {
        PlacementCost.Setup s = cost.setup();
        md.append(String.format(
                Locale.ROOT,
                "## Cost of one placement decision, %,d H200s%n%n"
                        + "One book-now booking decided by `FleetPlacements.place` (no RoomMaker) on a flexible fleet"
                        + " of %,d H200s, beside the static first fit of the layout the search chose on the first half"
                        + " (%s GPUs) scaled to %,d GPUs (%s), for the same bookings at the same moments, back to"
                        + " back, which first alternating; wall-clock time per booking (`System.nanoTime`)."
                        + " Bookings: the trace's GPU pods drawn at random (seed 27) with their unit, quantity and"
                        + " duration (capped at %s, the replay's `max-duration`), arriving as a Poisson process"
                        + " offering %.1f× the fleet's"
                        + " GPUs. Before timing, untimed: the fleets are filled as that stream would leave them"
                        + " (%,d bookings drawn by their GPU-seconds, each with a random part of its duration left,"
                        + " until they ask for %.0f %% of the compute slices; then busy: flexible %.0f %%, static %.0f"
                        + " %%), then %,d bookings of the stream warm the JIT. The machine has %d cores and is shared"
                        + " with other jobs (load average %s at the end; *on core* is the share of each round's"
                        + " wall-clock time the measuring thread ran): the tails include waiting for a core, so read"
                        + " the ratio, which both sides share, before the absolute times. *Allocated per booking*:"
                        + " bytes the measuring thread allocated per booking, nearly all of it the flexible decision;"
                        + " the collections it causes are counted in *over 1 ms (of them during a GC)*.%n%n",
                s.gpus(),
                s.gpus(),
                mixFrom.replace(" | ", ", "),
                s.gpus(),
                s.staticMix(),
                PlacementCost.MAX_DURATION.describe(),
                s.load(),
                s.filled(),
                100 * s.fill(),
                100 * s.filledBusyFlexible(),
                100 * s.filledBusyFixed(),
                s.warmup(),
                Runtime.getRuntime().availableProcessors(),
                loadAverage()));
        md.append("| round | bookings | flexible p50 µs | p90 | p99 | max | static first fit p50 µs | p90 | p99 | max |"
                + " p50 ratio | p99 ratio | flexible over 1 ms (of them during a GC) | refused flexible / static |"
                + " busy at the end flexible / static | on core | allocated per booking |\n"
                + "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        int i = 1;
        for (PlacementCost.Round r : cost.rounds()) {
            md.append(String.format(
                    Locale.ROOT,
                    "| %d | %,d | %s | %s | %s | %s | %s | %s | %s | %s | %.0f× | %.0f× | %,d (%,d) | %,d / %,d |"
                            + " %.0f %% / %.0f %% | %.0f %% | %,.0f KiB |%n",
                    i++,
                    r.bookings(),
                    micros(r.flexible(), 50),
                    micros(r.flexible(), 90),
                    micros(r.flexible(), 99),
                    micros(r.flexible().getMaxValue()),
                    micros(r.fixed(), 50),
                    micros(r.fixed(), 90),
                    micros(r.fixed(), 99),
                    micros(r.fixed().getMaxValue()),
                    ratio(r, 50),
                    ratio(r, 99),
                    r.flexibleSlow(),
                    r.flexibleSlowInGc(),
                    r.flexibleRefused(),
                    r.fixedRefused(),
                    100 * r.flexibleBusy(),
                    100 * r.fixedBusy(),
                    100 * r.onCpu(),
                    r.allocatedPerBooking() / 1024));
        }
        md.append('\n');
    }

    static double ratio(PlacementCost.Round r, double percentile) {
        return (double) r.flexible().getValueAtPercentile(percentile)
                / r.fixed().getValueAtPercentile(percentile);
    }

    private static String micros(Histogram h, double percentile) {
        return micros(h.getValueAtPercentile(percentile));
    }

    private static String micros(long nanos) {
        double us = nanos / 1000.0;
        return us >= 100
                ? String.format(Locale.ROOT, "%,.0f", us)
                : us >= 10 ? String.format(Locale.ROOT, "%.1f", us) : String.format(Locale.ROOT, "%.2f", us);
    }

    private static void results(
            List<Judged> judged, List<Size> sizes, List<Split> splits, long traceEnd, PlacementCost.Result cost) {
        for (Judged j : judged) {
            String p = "mig." + j.size().variant().key() + "." + j.split().key() + "."
                    + j.size().gpus() + "g.";
            result(p + "today_pct", j.today().percent(), "%");
            result(p + "first_half_pct", j.firstHalfPickOnSecond().percent(), "%");
            result(p + "best_pct", j.best().percent(), "%");
            result(p + "flexible_pct", j.flexible().percent(), "%");
        }
        for (Size size : sizes) {
            for (Split s : splits) {
                double days = (traceEnd - s.at()) / 86_400.0;
                long n = size.flexible().changes().relayouts(s.at(), traceEnd + 1);
                result(
                        "mig." + size.variant().key() + "." + s.key() + "." + size.gpus() + "g.relayouts_per_gpu_day",
                        n / (size.gpus() * days),
                        "/GPU/day");
            }
        }
        String c = "mig.cost." + cost.setup().gpus() + "g.";
        for (PlacementCost.Round r : cost.rounds()) {
            result(c + "flexible_p50_us", r.flexible().getValueAtPercentile(50) / 1000.0, "µs");
            result(c + "flexible_p99_us", r.flexible().getValueAtPercentile(99) / 1000.0, "µs");
            result(c + "static_p50_us", r.fixed().getValueAtPercentile(50) / 1000.0, "µs");
            result(c + "static_p99_us", r.fixed().getValueAtPercentile(99) / 1000.0, "µs");
            result(c + "p50_ratio", ratio(r, 50), "×");
            result(c + "p99_ratio", ratio(r, 99), "×");
        }
    }

    private static void result(String key, double value, String unit) {
        System.out.printf(Locale.ROOT, "RESULT %s %.4f %s%n", key, value, unit);
    }

    private static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ", -1);
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    private static void write(Path out, String text) throws IOException {
        if (out == null) {
            return;
        }
        if (out.getParent() != null) {
            Files.createDirectories(out.getParent());
        }
        Files.writeString(out, text);
    }
}
