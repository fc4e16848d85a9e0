package io.gpuaas.bench.suite;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * A pipe table as the bench mains print them ({@code | a | b |} header, {@code |---|} rule, rows). The suite reads the
 * figures of benches it does not own from these tables, by column name and row label, so a reordered column or an
 * added row does not break it; a renamed one is reported as "not found" rather than read wrongly.
 */
record MarkdownTable(List<String> header, List<List<String>> rows) {

    /** Every table in {@code text}, in order. */
    static List<MarkdownTable> parseAll(String text) {
        List<MarkdownTable> tables = new ArrayList<>();
        List<String> lines = text.lines().map(String::strip).toList();
        for (int i = 0; i + 1 < lines.size(); i++) {
            if (isRow(lines.get(i)) && lines.get(i + 1).matches("\\|(\\s*:?-+:?\\s*\\|)+")) {
                List<String> header = cells(lines.get(i));
                List<List<String>> rows = new ArrayList<>();
                int j = i + 2;
                for (; j < lines.size() && isRow(lines.get(j)); j++) {
                    rows.add(cells(lines.get(j)));
                }
                tables.add(new MarkdownTable(header, rows));
                i = j - 1;
            }
        }
        return tables;
    }

    /** The first table having a column whose name contains {@code column}. */
    static Optional<MarkdownTable> withColumn(List<MarkdownTable> tables, String column) {
        return tables.stream().filter(t -> t.column(column) >= 0).findFirst();
    }

    /** The first table having every one of {@code columns}. */
    static Optional<MarkdownTable> withColumns(List<MarkdownTable> tables, String... columns) {
        return tables.stream()
                .filter(t -> java.util.Arrays.stream(columns).allMatch(c -> t.column(c) >= 0))
                .findFirst();
    }

    /** Index of the first column whose name contains {@code name} (case-insensitive), or -1. */
    int column(String name) {
        for (int i = 0; i < header.size(); i++) {
            if (header.get(i).toLowerCase(Locale.ROOT).contains(name.toLowerCase(Locale.ROOT))) {
                return i;
            }
        }
        return -1;
    }

    /** Rows whose first cell matches. */
    List<List<String>> rowsWhere(Predicate<String> label) {
        return rows.stream().filter(r -> !r.isEmpty() && label.test(r.get(0))).toList();
    }

    /** The first number in a row's cell under {@code column} (e.g. "55,702 /s (min …)" → 55702), if any. */
    Optional<Double> number(List<String> row, String column) {
        int c = column(column);
        return c < 0 || c >= row.size() ? Optional.empty() : Numbers.first(row.get(c));
    }

    private static boolean isRow(String line) {
        return line.startsWith("|") && line.endsWith("|") && line.length() > 1;
    }

    private static List<String> cells(String line) {
        String inner = line.substring(1, line.length() - 1);
        return Arrays.stream(inner.split("\\|", -1)).map(String::strip).toList();
    }
}
