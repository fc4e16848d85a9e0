package io.gpuaas.bench.metrics;

import java.util.Arrays;

/** Median and spread of repeated measurements (machine: 2 shared, noisy cores, so the spread matters). */
record Stats(double median, double min, double max, int runs) {

    static Stats of(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
        return new Stats(median, sorted[0], sorted[n - 1], n);
    }

    String format(String unit, String pattern) {
        return String.format(
                pattern + " %s (min " + pattern + ", max " + pattern + ", n=%d)", median, unit, min, max, runs);
    }
}
