package io.gpuaas.bench.suite;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What the suite runs, in order, in {@code --quick} mode (small sizes, one run each: a smoke test) or in full (the
 * issues' sizes, 3 runs or rounds each, and the growth from 1,000 to 10,000 GPUs and 100 to 1,000 tenants).
 * Steps run one after another, never side by side: they would measure each other.
 */
final class Plan {

    private Plan() {}

    static List<Step> of(boolean quick, Path data) {
        List<Step> steps = new ArrayList<>();
        steps.add(baseline(quick));
        steps.add(booking(quick, data));
        Path openb = data.resolve("openb-pod-list.csv");
        if (Files.isRegularFile(openb)) {
            steps.add(noShow(quick, openb));
        }
        steps.add(flex(quick));
        steps.add(dashboard(quick));
        steps.add(mig(quick, openb));
        for (int tenants : quick ? new int[] {100} : new int[] {100, 1000}) {
            steps.add(quota(quick, tenants));
        }
        for (int gpus : quick ? new int[] {1000} : new int[] {1000, 10000}) {
            steps.add(reclaim(quick, gpus));
        }
        Path duty = data.resolve("gpu-duty-cycle-dev.csv");
        if (Files.isRegularFile(duty)) {
            steps.add(new Step(
                    "reclaim-replay",
                    Step.Kind.REPLAY,
                    0,
                    "io.gpuaas.bench.reclaim.DutyCycleReplayBench",
                    List.of("--trace", duty.toString(), "--windows", quick ? "15" : "5,15,30,60"),
                    "1g",
                    quick ? 300 : 900));
        }
        Path scrape = data.resolve("dcgm-exporter-h100x8.prom");
        for (int gpus : quick ? new int[] {1000} : new int[] {1000, 5000, 10000}) {
            steps.add(new Step(
                    "metrics-ingest-" + gpus,
                    Step.Kind.INGEST,
                    gpus,
                    "io.gpuaas.bench.metrics.IngestBenchmark",
                    List.of(
                            "--scrape",
                            scrape.toString(),
                            "--gpus",
                            Integer.toString(gpus),
                            // A round at 10,000 GPUs is then ~0.5 s: long enough for the CPU clock's 10 ms ticks.
                            "--scrapes",
                            quick ? "2" : "12",
                            // Two brokers (authentication on and off), rounds interleaved: twice the rounds.
                            "--rounds",
                            quick ? "2" : "5",
                            "--threads",
                            "2"),
                    "1500m",
                    900));
        }
        int remoteWriteGpus = quick ? 1000 : 10000;
        steps.add(new Step(
                "metrics-remote-write-" + remoteWriteGpus,
                Step.Kind.REMOTE_WRITE,
                remoteWriteGpus,
                "io.gpuaas.bench.metrics.RemoteWriteBenchmark",
                List.of(
                        "--scrape",
                        scrape.toString(),
                        "--gpus",
                        Integer.toString(remoteWriteGpus),
                        "--scrapes",
                        quick ? "4" : "12",
                        "--rounds",
                        quick ? "2" : "5",
                        "--senders",
                        "16"),
                "1500m",
                900));
        int[][] renders = quick
                ? new int[][] {{1000, 100}, {10000, 1000}}
                : new int[][] {{1000, 100}, {5000, 100}, {10000, 100}, {1000, 1000}, {5000, 1000}, {10000, 1000}};
        for (int[] r : renders) {
            steps.add(new Step(
                    "metrics-render-" + r[0] + "-" + r[1],
                    Step.Kind.RENDER,
                    r[0],
                    "io.gpuaas.bench.metrics.RenderBenchmark",
                    List.of(
                            "--gpus",
                            Integer.toString(r[0]),
                            "--tenants",
                            Integer.toString(r[1]),
                            "--iterations",
                            quick ? "10" : "50"),
                    "1g",
                    300));
        }
        int[][] stacks = quick
                ? new int[][] {{16, 2}}
                : new int[][] {{16, 2}, {1000, 100}, {5000, 100}, {10000, 100}, {10000, 1000}};
        for (int[] s : stacks) {
            steps.add(new Step(
                    "scale-" + s[0] + "-" + s[1],
                    Step.Kind.SCALE,
                    s[0],
                    "io.gpuaas.bench.scale.StackScale",
                    List.of(
                            "--gpus",
                            Integer.toString(s[0]),
                            "--tenants",
                            Integer.toString(s[1]),
                            "--settle",
                            quick ? "10" : "30",
                            "--ready-timeout",
                            quick ? "240" : "540"),
                    "256m",
                    900));
        }
        return steps;
    }

    /**
     * JVM flags a step needs besides {@code -Xmx}. The booking and reclaim benches compare their runs with each other:
     * their heap is fixed at {@code -Xmx}, because G1 otherwise shrank it at its first remark (380 MB to 67 MB) and grew
     * it back during run 1 with a concurrent cycle every 2 to 3 s (remark pauses of 20 to 55 ms), and in no later run.
     */
    static List<String> jvmFlags(Step step) {
        return switch (step.kind()) {
            case BOOKING, NO_SHOW, FLEX, RECLAIM, MIG -> List.of("-Xms" + step.heap());
            default -> List.of();
        };
    }

    private static Step baseline(boolean quick) {
        return new Step(
                "baseline",
                Step.Kind.BASELINE,
                0,
                "io.gpuaas.bench.baseline.KafkaBaseline",
                List.of(
                        "--records",
                        quick ? "50000" : "200000",
                        "--size",
                        "512",
                        "--latency-messages",
                        quick ? "500" : "2000",
                        "--runs",
                        quick ? "1" : "3"),
                "1g",
                600);
    }

    private static Step booking(boolean quick, Path data) {
        List<String> args =
                new ArrayList<>(List.of("--rate", "500", "--seconds", quick ? "4" : "10", "--runs", quick ? "1" : "3"));
        Path openb = data.resolve("openb-pod-list.csv");
        if (Files.isRegularFile(openb)) {
            args.addAll(List.of("--csv", openb.toString()));
            if (quick) {
                // The budget replay: every 5th pod (about 1,400 creates) instead of all 7,049.
                args.addAll(List.of("--budget-every", "5"));
            }
        }
        args.addAll(List.of("--out", "bench/target/suite/booking.md"));
        // The fixed-rate runs go on two brokers (authentication on and off): twice the warm-up and measured runs.
        return new Step("booking", Step.Kind.BOOKING, 0, "io.gpuaas.bench.booking.BookingBench", args, "1500m", 1500);
    }

    /**
     * The openb pods as bookings through the real engine and lifecycle, 20 % never used, on both fleets; decisions at
     * 500/s beside the raw round trip while the openb fleet's replay runs. Quick: arrivals in one minute, one run.
     */
    private static Step noShow(boolean quick, Path openb) {
        List<String> args = List.of(
                "--csv",
                openb.toString(),
                "--minutes",
                quick ? "1" : "3",
                "--seconds",
                quick ? "4" : "10",
                "--runs",
                quick ? "1" : "3",
                "--warmup-rounds",
                quick ? "1" : "2",
                "--out",
                "bench/target/suite/no-show.md");
        return new Step(
                "booking-no-show", Step.Kind.NO_SHOW, 0, "io.gpuaas.bench.booking.NoShowBench", args, "1500m", 1200);
    }

    /**
     * Issue 27: decisions at 500/s on one flexible MIG pool of 1,000 H200s (quick: 200), a mix of whole GPUs and
     * profiles, after a fill to 70 % of the horizon's GPU-hours, beside the raw round trip of the same rounds: 10-s
     * rounds and up to 3 warm-ups, as the {@code booking} step. The fill grows with the planned rounds (3.5 times their
     * commands, 105,000 here), which the flexible decider takes at about 2,000/s unpaced since it reads only the GPUs
     * that can take a unit (2026-11-28; before, 330–980/s, so this step ran 4-s rounds with one warm-up).
     */
    private static Step flex(boolean quick) {
        List<String> args = List.of(
                "--gpus",
                quick ? "200" : "1000",
                "--rate",
                "500",
                "--seconds",
                quick ? "4" : "10",
                "--runs",
                quick ? "1" : "3",
                "--warmup-rounds",
                quick ? "1" : "3",
                "--out",
                "bench/target/suite/booking-flex.md");
        return new Step(
                "booking-flex", Step.Kind.FLEX, 0, "io.gpuaas.bench.booking.FlexDecisionBench", args, "1500m", 1500);
    }

    /**
     * The dashboard overview's draw time in headless Chromium against booking-service with 200 bookings of 5 tenants;
     * measured loads after discarded warm-ups. Skipped (a problem, no figure) without Chromium and chromedriver.
     */
    private static Step dashboard(boolean quick) {
        List<String> args = List.of(
                "--bookings",
                "200",
                "--tenants",
                "5",
                "--warmups",
                "3",
                "--loads",
                quick ? "5" : "15",
                "--out",
                "bench/target/suite/dashboard.md");
        return new Step(
                "dashboard", Step.Kind.DASHBOARD, 0, "io.gpuaas.bench.dashboard.DashboardBench", args, "1g", 600);
    }

    /**
     * Issue 27: the openb pods on 32 and 64 H200s laid out statically (today's, searched) and flexibly, and the cost
     * of one flexible placement on a large fleet beside a static first fit. Planned even without the trace: the bench
     * then says it was skipped (a PROBLEM line), so the targets read "not measured" with the reason.
     */
    private static Step mig(boolean quick, Path openb) {
        List<String> args = List.of(
                "--csv",
                openb.toString(),
                "--gpus",
                "32,64",
                "--parts",
                "8",
                "--cost-gpus",
                quick ? "200" : "1000",
                "--cost-warmup",
                quick ? "1000" : "5000",
                "--cost-bookings",
                quick ? "1000" : "3000",
                "--cost-rounds",
                quick ? "1" : "3",
                "--out",
                "bench/target/suite/mig.md");
        return new Step("mig-replay", Step.Kind.MIG, 0, "io.gpuaas.bench.mig.MigReplayBench", args, "1500m", 600);
    }

    private static Step quota(boolean quick, int tenants) {
        List<String> args = new ArrayList<>(List.of(
                "--tenants", Integer.toString(tenants), "--out", "bench/target/suite/quota-" + tenants + ".md"));
        if (quick) {
            args.addAll(List.of("--burst", "50", "--workloads", "50", "--spread", "5", "--window", "5"));
        }
        return new Step(
                "quota-" + tenants, Step.Kind.QUOTA, tenants, "io.gpuaas.bench.quota.QuotaBench", args, "1500m", 900);
    }

    /**
     * Samples in each reclaim pass, the same at every fleet size. Every pass is a new Streams application that pays a
     * fixed 3–4 s of JIT and start-up work; with 100,000 samples (the 1,000-GPU size's former count) that was most of
     * a pass's CPU (1,000 GPUs: 42–69 µs per sample at 100,000 samples, 27.5–31.7 at 600,000), so the sizes compared
     * pass lengths, not fleets.
     */
    static final int PASS_SAMPLES = 600_000;

    private static Step reclaim(boolean quick, int gpus) {
        int workloads = gpus / 8;
        int samples = quick ? 40_000 : PASS_SAMPLES;
        return new Step(
                "reclaim-" + gpus,
                Step.Kind.RECLAIM,
                gpus,
                "io.gpuaas.bench.reclaim.ReclaimThroughputBench",
                List.of(
                        "--samples",
                        Integer.toString(samples),
                        "--workloads",
                        Integer.toString(workloads),
                        "--gpus-per-workload",
                        "8",
                        "--repeats",
                        quick ? "1" : "3"),
                "1500m",
                900);
    }
}
