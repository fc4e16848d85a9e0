package io.gpuaas.bench.suite;

import java.util.List;
import java.util.Locale;

/**
 * The figures of {@code metrics.RemoteWriteBenchmark}: series and device samples/s of the bare decode and of the
 * ingest (summary table, median/min/max over rounds), and the per-round ratio of the two, under
 * {@code remote_write.<gpus>g.}. The per-round table above them repeats the column names without "(median", so it is
 * never read.
 */
final class RemoteWriteExtract {

    private RemoteWriteExtract() {}

    static void into(Results results, int gpus, String output) {
        String p = "remote_write." + gpus + "g.";
        List<MarkdownTable> tables = MarkdownTable.parseAll(output);
        MarkdownTable.withColumn(tables, "series samples/s (median")
                .ifPresent(t -> t.rows().forEach(row -> {
                    String label = row.get(0).toLowerCase(Locale.ROOT);
                    String key = label.startsWith("bare")
                            ? "bare"
                            : label.startsWith("remote-write ingested") ? "ingested" : null;
                    if (key != null) {
                        put(results, p + key + "_series_per_s", row.get(t.column("series samples/s (median")));
                        put(results, p + key + "_devices_per_s", row.get(t.column("device samples/s (median")));
                    }
                }));
        MarkdownTable.withColumn(tables, "per-round ratio")
                .ifPresent(t -> t.rowsWhere(l -> l.toLowerCase(Locale.ROOT).startsWith("remote-write ingested"))
                        .forEach(row -> put(results, p + "ratio", row.get(t.column("per-round ratio")))));
    }

    /** A bench's own summary, "median (min …, max …, n=N)". */
    private static void put(Results results, String key, String cell) {
        List<Double> n = Numbers.all(cell);
        if (n.size() >= 3) {
            results.put(
                    key,
                    Figure.summarised(
                            n.get(0),
                            n.get(1),
                            n.get(2),
                            n.size() > 3 ? n.get(3).intValue() : 1,
                            "rounds"));
        }
    }
}
