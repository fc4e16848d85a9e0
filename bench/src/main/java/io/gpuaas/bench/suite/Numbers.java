package io.gpuaas.bench.suite;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Numbers as the benches print them (thousands separators, "n/a") and as the report prints them. */
final class Numbers {

    private static final Pattern NUMBER = Pattern.compile("-?\\d[\\d,]*(?:\\.\\d+)?|NaN");

    private Numbers() {}

    static Optional<Double> first(String text) {
        List<Double> all = all(text);
        return all.isEmpty() ? Optional.empty() : Optional.of(all.get(0));
    }

    /** Every number in a cell, in order: "55,702 /s (min 42,714, max 66,623, n=5)" → [55702, 42714, 66623, 5]. */
    static List<Double> all(String text) {
        List<Double> out = new ArrayList<>();
        Matcher m = NUMBER.matcher(text);
        while (m.find()) {
            out.add(Double.parseDouble(m.group().replace(",", "")));
        }
        return out;
    }

    /** Compact human form: 3 significant digits below 100, thousands grouped above. */
    static String format(double value) {
        if (Double.isNaN(value)) {
            return "n/a";
        }
        double abs = Math.abs(value);
        if (abs >= 100) {
            return String.format(Locale.ROOT, "%,.0f", value);
        }
        if (abs >= 10) {
            return String.format(Locale.ROOT, "%.1f", value);
        }
        if (abs >= 1) {
            return String.format(Locale.ROOT, "%.2f", value);
        }
        return String.format(Locale.ROOT, "%.3f", value);
    }
}
