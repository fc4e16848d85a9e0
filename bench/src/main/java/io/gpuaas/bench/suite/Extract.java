package io.gpuaas.bench.suite;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads each bench's output into {@link Results}. The suite's own mains (baseline, scale) print {@code RESULT key value
 * unit} lines; the area benches print Markdown tables, read here by column name and row label. Whatever cannot be
 * found is recorded as a problem, so a changed bench shows up as a gap in BENCHMARKS.md, never as a wrong figure.
 */
final class Extract {

    private static final Pattern RESULT = Pattern.compile("^RESULT (\\S+) (-?[\\d.]+|NaN) ?(.*)$", Pattern.MULTILINE);
    private static final Pattern PROBLEM = Pattern.compile("^PROBLEM (.+)$", Pattern.MULTILINE);
    private static final Pattern ACCEPTED = Pattern.compile("Accepted (\\d+), rejected (\\{[^}]*\\})");
    private static final Pattern RENDER_SCALE =
            Pattern.compile("scale: (\\d+) GPUs, (\\d+) tenants, (\\d+) series, (\\d+) KiB");

    /** The label prefix of the booking and ingest rows measured on the broker without authentication. */
    static final String AUTH_OFF = "auth off: ";

    private Extract() {}

    /** Dispatches on the step's kind. */
    static void into(Results results, Step step, String output) {
        int before = results.keys().size();
        // Log lines of a bench's threads can fall between the rows of its tables: read the tables without them.
        String tables = Sections.filter(output);
        switch (step.kind()) {
            case BASELINE, SCALE -> resultLines(results, output, step.kind() == Step.Kind.BASELINE ? "runs" : "run");
            case BOOKING -> {
                booking(results, tables);
                resultLines(results, output, "run"); // the budget replay's figures and its PROBLEM lines
            }
            case NO_SHOW -> resultLines(results, output, "runs");
            case FLEX -> resultLines(results, output, "rounds");
            case DASHBOARD -> resultLines(results, output, "loads");
            case MIG -> mig(results, output);
            case QUOTA -> quota(results, step.size(), tables);
            case RECLAIM -> reclaim(results, step.size(), tables);
            case REPLAY -> replay(results, tables);
            case INGEST -> ingest(results, step.size(), tables);
            case REMOTE_WRITE -> RemoteWriteExtract.into(results, step.size(), tables);
            case RENDER -> render(results, tables);
        }
        // A bench that said why it measured nothing (a PROBLEM line) has said enough.
        if (results.keys().size() == before && !PROBLEM.matcher(output).find()) {
            results.problem(step.id() + ": no figure could be read from its output (see " + step.id() + ".log)");
        }
    }

    static void resultLines(Results results, String output, String basis) {
        Matcher m = RESULT.matcher(output);
        while (m.find()) {
            results.add(m.group(1), Double.parseDouble(m.group(2)), basis);
        }
        Matcher p = PROBLEM.matcher(output);
        while (p.find()) {
            results.problem(p.group(1));
        }
    }

    /**
     * The MIG replay's RESULT lines: each share or re-layout rate comes from one deterministic replay; the placement
     * times ({@code mig.cost.…}) once per measured round.
     */
    static void mig(Results results, String output) {
        Matcher m = RESULT.matcher(output);
        while (m.find()) {
            String key = m.group(1);
            results.add(key, Double.parseDouble(m.group(2)), key.startsWith("mig.cost.") ? "rounds" : "replay");
        }
        Matcher p = PROBLEM.matcher(output);
        while (p.find()) {
            results.problem(p.group(1));
        }
    }

    static void booking(Results results, String output) {
        List<MarkdownTable> tables = MarkdownTable.parseAll(output);
        MarkdownTable.withColumn(tables, "records/s").ifPresent(t -> {
            for (List<String> row : measured(t)) {
                String label = row.get(0).toLowerCase(Locale.ROOT);
                if (label.startsWith("raw")) {
                    t.number(row, "p99").ifPresent(v -> results.add("booking.raw_rt_p99_ms", v, "runs"));
                } else if (label.contains("saturated")) {
                    t.number(row, "records/s").ifPresent(v -> results.add("booking.saturated_per_s", v, "runs"));
                } else if (label.startsWith("decisions at")) {
                    t.number(row, "p99").ifPresent(v -> results.add("booking.fixed_p99_ms", v, "runs"));
                    t.number(row, "p50").ifPresent(v -> results.add("booking.fixed_p50_ms", v, "runs"));
                    t.number(row, "records/s").ifPresent(v -> results.add("booking.fixed_rate_per_s", v, "runs"));
                } else if (label.startsWith(AUTH_OFF + "decisions at")) {
                    t.number(row, "p99").ifPresent(v -> results.add("booking.auth_off.fixed_p99_ms", v, "runs"));
                } else if (label.startsWith(AUTH_OFF + "raw")) {
                    t.number(row, "p99").ifPresent(v -> results.add("booking.auth_off.raw_rt_p99_ms", v, "runs"));
                }
            }
        });
        MarkdownTable.withColumn(tables, "queries").ifPresent(t -> t.rows().forEach(row -> {
            t.number(row, "p99").ifPresent(v -> results.add("booking.availability_p99_ms", v, "run"));
            t.number(row, "p50").ifPresent(v -> results.add("booking.availability_p50_ms", v, "run"));
        }));
        Matcher accepted = ACCEPTED.matcher(output);
        String[] fleets = {"openb", "local16"};
        for (int i = 0; i < fleets.length && accepted.find(); i++) {
            results.add("booking." + fleets[i] + ".accepted", Double.parseDouble(accepted.group(1)), "run");
            results.note("booking." + fleets[i] + ".rejected", accepted.group(2));
        }
        List<MarkdownTable> replays =
                tables.stream().filter(t -> t.column("booked utilization") >= 0).toList();
        for (int i = 0; i < Math.min(fleets.length, replays.size()); i++) {
            MarkdownTable t = replays.get(i);
            StringBuilder text = new StringBuilder();
            for (List<String> row : t.rows()) {
                text.append(text.isEmpty() ? "" : ", ")
                        .append(row.get(0))
                        .append(' ')
                        .append(row.get(t.column("booked utilization")));
            }
            results.note("booking." + fleets[i] + ".utilization", text.toString());
        }
    }

    static void quota(Results results, int tenants, String output) {
        String p = "quota." + tenants + "t.";
        for (MarkdownTable t : MarkdownTable.parseAll(output)) {
            if (t.column("p99") < 0 || t.column("n") < 0) {
                continue;
            }
            for (List<String> row : t.rows()) {
                String label = row.get(0).toLowerCase(Locale.ROOT);
                // Rows measured with a busy-loop process on one core get their own keys (…_busy_p99_ms).
                String busy = label.contains("core busy") ? "_busy" : "";
                String key = label.contains("raw create → watch")
                        ? "raw_create_watch" + busy + "_p99_ms"
                        : label.contains("raw create at each instant")
                                ? "raw_spread" + busy + "_p99_ms"
                                : label.contains("spread")
                                        ? "boundary_spread" + busy + "_p99_ms"
                                        : label.contains("one instant")
                                                ? "boundary_instant" + busy + "_p99_ms"
                                                : label.contains("quota-state")
                                                        ? "workload_state_p99_ms"
                                                        : label.contains("kafka produce") ? "kafka_rt_p99_ms" : null;
                Optional<Double> p99 = t.number(row, "p99");
                if (key != null && p99.isPresent() && !p99.get().isNaN()) {
                    results.add(p + key, p99.get(), key.startsWith("boundary") ? "sets (starts, ends)" : "run");
                }
            }
        }
    }

    static void reclaim(Results results, int gpus, String output) {
        String p = "reclaim." + gpus + "g.";
        List<MarkdownTable> tables = MarkdownTable.parseAll(output);
        MarkdownTable.withColumn(tables, "pipeline samples/s")
                .ifPresent(t -> measured(t).forEach(row -> {
                    t.number(row, "pipeline").ifPresent(v -> results.add(p + "pipeline_per_s", v, "runs"));
                    t.number(row, "raw consumer").ifPresent(v -> results.add(p + "raw_consumer_per_s", v, "runs"));
                }));
        MarkdownTable.withColumns(tables, "reclaims", "p99").ifPresent(t -> {
            List<List<String>> all = t.rowsWhere(l -> l.equalsIgnoreCase("all"));
            (all.isEmpty() ? measured(t) : all).forEach(row -> {
                t.number(row, "p99")
                        .ifPresent(v -> results.add(
                                "reclaim.close_to_patch_p99_ms", v, all.isEmpty() ? "rounds" : "runs (all rounds)"));
                t.number(row, "p50")
                        .ifPresent(v -> results.add(
                                "reclaim.close_to_patch_p50_ms", v, all.isEmpty() ? "rounds" : "runs (all rounds)"));
            });
        });
    }

    /** A table's rows but its warm-up rows ("warm-up (discarded) …"), which the benches print and never count. */
    static List<List<String>> measured(MarkdownTable t) {
        return t.rowsWhere(label -> !label.toLowerCase(Locale.ROOT).startsWith("warm-up"));
    }

    static void replay(Results results, String output) {
        Optional<MarkdownTable> table = MarkdownTable.withColumn(MarkdownTable.parseAll(output), "rejected by oracle");
        if (table.isEmpty() || table.get().rows().isEmpty()) {
            return;
        }
        MarkdownTable t = table.get();
        results.add(
                "replay.rejected_total",
                t.rows().stream()
                        .mapToDouble(row -> t.number(row, "rejected by oracle").orElse(Double.NaN))
                        .sum(),
                "replay");
        results.add(
                "replay.missed_total",
                t.rows().stream()
                        .mapToDouble(row -> t.number(row, "missed").orElse(Double.NaN))
                        .sum(),
                "replay");
        t.rows().forEach(row -> {
            String window = row.get(0).replace(" ", "");
            int gpuH = t.column("GPU-h");
            int perDay = t.column("per pod-day");
            results.note(
                    "replay." + window,
                    "oracle " + row.get(t.column("oracle reclaims")) + ", pipeline "
                            + row.get(t.column("pipeline reclaims")) + ", GPU-h " + (gpuH < 0 ? "?" : row.get(gpuH))
                            + ", per pod-day " + (perDay < 0 ? "?" : row.get(perDay)));
        });
    }

    static void ingest(Results results, int gpus, String output) {
        MarkdownTable.withColumn(MarkdownTable.parseAll(output), "samples/s")
                .ifPresent(t -> t.rows().forEach(row -> {
                    String label = row.get(0).toLowerCase(Locale.ROOT);
                    String key = label.startsWith("raw producer")
                            ? "raw_producer"
                            : label.startsWith("parse only")
                                    ? "parse_only"
                                    : label.startsWith("parsed and published")
                                            ? "published"
                                            : label.startsWith(AUTH_OFF + "parsed and published")
                                                    ? "auth_off.published"
                                                    : null;
                    List<Double> n = Numbers.all(row.get(t.column("samples/s")));
                    if (key != null && n.size() >= 3) {
                        results.put(
                                "ingest." + gpus + "g." + key + "_per_s",
                                Figure.summarised(
                                        n.get(0),
                                        n.get(1),
                                        n.get(2),
                                        n.size() > 3 ? n.get(3).intValue() : 1,
                                        "rounds"));
                    }
                }));
    }

    static void render(Results results, String output) {
        Matcher scale = RENDER_SCALE.matcher(output);
        if (!scale.find()) {
            return;
        }
        String p = "render." + scale.group(1) + "g." + scale.group(2) + "t.";
        results.add(p + "series", Double.parseDouble(scale.group(3)), "run");
        results.add(p + "kib", Double.parseDouble(scale.group(4)), "run");
        MarkdownTable.withColumn(MarkdownTable.parseAll(output), "ms per")
                .ifPresent(t -> t.rows().forEach(row -> {
                    String label = row.get(0).toLowerCase(Locale.ROOT);
                    String key = label.startsWith("baseline")
                            ? "baseline_ms"
                            : label.contains("prometheus text")
                                    ? "text_ms"
                                    : label.contains("openmetrics") ? "openmetrics_ms" : null;
                    List<Double> n = Numbers.all(row.get(t.column("ms per")));
                    // "20.6 ms (min 14.7, max 61.7)" or "... n=50": median, min, max
                    if (key != null && n.size() >= 3) {
                        results.put(
                                p + key,
                                Figure.summarised(
                                        n.get(0),
                                        n.get(1),
                                        n.get(2),
                                        n.size() > 3 ? n.get(3).intValue() : 1,
                                        "renders"));
                    }
                }));
    }
}
