package io.gpuaas.bench.suite;

import java.util.Arrays;
import java.util.List;

/**
 * One measured quantity of a suite run with its spread: the typical value (median), the smallest and largest, and
 * over how many measurements (runs, rounds or samples, as {@code basis} says).
 */
record Figure(double median, double min, double max, int n, String basis) {

    static Figure of(List<Double> values, String basis) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("no values for a figure");
        }
        double[] sorted =
                values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int len = sorted.length;
        double median = len % 2 == 1 ? sorted[len / 2] : (sorted[len / 2 - 1] + sorted[len / 2]) / 2;
        return new Figure(median, sorted[0], sorted[len - 1], len, basis);
    }

    static Figure single(double value, String basis) {
        return new Figure(value, value, value, 1, basis);
    }

    /** A figure a bench already summarised (median, min, max over its rounds). */
    static Figure summarised(double median, double min, double max, int n, String basis) {
        return new Figure(median, min, max, n, basis);
    }

    Figure merge(Figure other) {
        double[] both = {min, max, other.min, other.max};
        Arrays.sort(both);
        return new Figure(n >= other.n ? median : other.median, both[0], both[3], n + other.n, basis);
    }

    /** "1,234 (1,100–1,400, 3 runs)" or "1,234 (1 run)". */
    String render(String unit) {
        String u = unit.isEmpty() ? "" : " " + unit;
        if (n == 1 || min == max) {
            return Numbers.format(median) + u + " (" + n + " " + basisFor(n) + ")";
        }
        return Numbers.format(median) + u + " (" + Numbers.format(min) + "–" + Numbers.format(max) + ", " + n + " "
                + basisFor(n) + ")";
    }

    /** "1 run", "3 runs": the basis is written in the plural; its first word loses the s for one. */
    private String basisFor(int count) {
        int space = basis.indexOf(' ');
        String word = space < 0 ? basis : basis.substring(0, space);
        String rest = space < 0 ? "" : basis.substring(space);
        if (count == 1 && word.endsWith("s")) {
            return word.substring(0, word.length() - 1) + rest;
        }
        return count != 1 && !word.endsWith("s") ? word + "s" + rest : basis;
    }

    /** Range only: "1,100–1,400". */
    String range() {
        return min == max ? Numbers.format(min) : Numbers.format(min) + "–" + Numbers.format(max);
    }
}
