package io.gpuaas.bench.metrics;

import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/** The remote-write bench's tables: rates per round (warm-up rows printed, never counted), ratio, CPU. */
final class RemoteWriteReport {

    private RemoteWriteReport() {}

    private static final String BARE =
            "bare snappy + protobuf decode (snappy-java, protobuf-java, every label a String;" + " baseline)";
    private static final String MAPPED = "decoded and mapped to GpuScrapes (no Kafka)";
    private static final String INGESTED = "remote-write ingested (decoded, mapped, encoded, published until acked)";

    static void print(List<RemoteWriteRounds.Result> warmUp, List<RemoteWriteRounds.Result> measured) {
        System.out.println("| round | contender | series samples/s | device samples/s | JIT ms |");
        System.out.println("|---|---|---|---|---|");
        for (int w = 0; w < warmUp.size(); w++) {
            rows("warm-up (discarded) " + (w + 1), warmUp.get(w));
        }
        for (int r = 0; r < measured.size(); r++) {
            rows("run " + (r + 1), measured.get(r));
        }
        System.out.println();
        System.out.println(
                "| measurement | series samples/s (median, min, max over rounds) | device samples/s (median, min, max) |");
        System.out.println("|---|---|---|");
        summary(BARE, measured, RemoteWriteRounds.Result::bare);
        summary(MAPPED, measured, RemoteWriteRounds.Result::mapped);
        summary(INGESTED, measured, RemoteWriteRounds.Result::ingested);
        System.out.println();
        double[] ratios = measured.stream()
                .mapToDouble(r -> r.ingested().seriesPerSecond() / r.bare().seriesPerSecond())
                .toArray();
        System.out.println("| ratio | per-round ratio (median, min, max over rounds) |");
        System.out.println("|---|---|");
        System.out.println(
                "| remote-write ingested / bare decode | " + Stats.of(ratios).format("×", "%.2f") + " |");
        System.out.println();
        System.out.println(
                "| contender | JVM CPU µs per device sample, broker and GC included (median, min, max over rounds) |");
        System.out.println("|---|---|");
        cpu(BARE, measured, RemoteWriteRounds.Result::bare);
        cpu(MAPPED, measured, RemoteWriteRounds.Result::mapped);
        cpu(INGESTED, measured, RemoteWriteRounds.Result::ingested);
    }

    private static void rows(String round, RemoteWriteRounds.Result result) {
        row(round, "bare decode", result.bare());
        row(round, "decoded and mapped", result.mapped());
        row(round, "ingested", result.ingested());
    }

    private static void row(String round, String contender, RemoteWriteRounds.Rate rate) {
        System.out.printf(
                "| %s | %s | %,.0f | %,.0f | %d |%n",
                round, contender, rate.seriesPerSecond(), rate.devicesPerSecond(), rate.jitMillis());
    }

    private static void summary(
            String label,
            List<RemoteWriteRounds.Result> measured,
            Function<RemoteWriteRounds.Result, RemoteWriteRounds.Rate> contender) {
        System.out.println("| " + label + " | "
                + stats(measured, contender, RemoteWriteRounds.Rate::seriesPerSecond)
                        .format("/s", "%,.0f") + " | "
                + stats(measured, contender, RemoteWriteRounds.Rate::devicesPerSecond)
                        .format("/s", "%,.0f") + " |");
    }

    private static void cpu(
            String label,
            List<RemoteWriteRounds.Result> measured,
            Function<RemoteWriteRounds.Result, RemoteWriteRounds.Rate> contender) {
        System.out.println("| " + label + " | "
                + stats(measured, contender, RemoteWriteRounds.Rate::cpuMicrosPerDevice)
                        .format("µs", "%.2f")
                + " |");
    }

    private static Stats stats(
            List<RemoteWriteRounds.Result> measured,
            Function<RemoteWriteRounds.Result, RemoteWriteRounds.Rate> contender,
            ToDoubleFunction<RemoteWriteRounds.Rate> field) {
        return Stats.of(Arrays.stream(measured.stream().map(contender).toArray(RemoteWriteRounds.Rate[]::new))
                .mapToDouble(field)
                .toArray());
    }
}
