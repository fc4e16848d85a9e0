package io.gpuaas.bench.quota;

import java.util.Arrays;
import java.util.Collection;

/** Percentiles of one set of latency samples, in milliseconds. */
record Latencies(String name, int n, double p50, double p90, double p99, double max, double min) {

    static Latencies of(String name, Collection<Double> millis) {
        double[] sorted =
                millis.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        if (sorted.length == 0) {
            return new Latencies(name, 0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        }
        return new Latencies(
                name,
                sorted.length,
                at(sorted, 0.50),
                at(sorted, 0.90),
                at(sorted, 0.99),
                sorted[sorted.length - 1],
                sorted[0]);
    }

    private static double at(double[] sorted, double q) {
        int index = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    String row() {
        return String.format("| %s | %d | %.1f | %.1f | %.1f | %.1f | %.1f |", name, n, min, p50, p90, p99, max);
    }

    static String header() {
        return "| measurement | n | min ms | p50 ms | p90 ms | p99 ms | max ms |\n|---|---|---|---|---|---|---|";
    }

    static double[] values(Collection<Double> millis) {
        return millis.stream().mapToDouble(Double::doubleValue).toArray();
    }

    @Override
    public String toString() {
        return name + " " + Arrays.toString(new double[] {p50, p99, max});
    }
}
