package io.gpuaas.bench.suite;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The per-service sections: what each bench printed in this run (its tables and notes, without its logs), under the
 * command that reproduces it. Written to bench/results/<area>.md and included in BENCHMARKS.md.
 */
final class Sections {

    static final Map<String, String> TITLES = Map.of(
            "booking",
            "booking-service",
            "mig",
            "booking-service: flexible MIG placement on the openb trace (issue 27)",
            "quota",
            "quota-projector: boundary → ClusterQueue, Workload → quota-state",
            "reclaim",
            "idle-reclaimer: samples/s, window close → patch, duty-cycle replay",
            "metrics",
            "metrics-gateway: DCGM ingest and /metrics render");
    private static final List<String> ORDER = List.of("booking", "mig", "quota", "reclaim", "metrics");
    private static final Pattern LOG_LINE = Pattern.compile(
            "^(\\d{2}:\\d{2}:\\d{2}|\\s+at |\\s*\\.\\.\\. \\d+ more|Formatting metadata|SLF4J|WARNING:|\\s*tool:|RESULT |Caused by)");

    private Sections() {}

    /** Area → Markdown section, in the fixed order; steps of other kinds (baseline, scale) are in the tables. */
    static Map<String, String> render(List<ChildJvm.Outcome> outcomes, String label, Path root) throws IOException {
        Map<String, String> sections = new LinkedHashMap<>();
        for (String area : ORDER) {
            StringBuilder md = new StringBuilder("## ")
                    .append(TITLES.get(area))
                    .append("\n\n")
                    .append(label)
                    .append("\n\n");
            boolean any = false;
            for (ChildJvm.Outcome o : outcomes) {
                if (!o.step().kind().area.equals(area)) {
                    continue;
                }
                any = true;
                md.append("### Step `")
                        .append(o.step().id())
                        .append("` (")
                        .append(String.format(Locale.ROOT, "%.0f s", o.seconds()))
                        .append(
                                o.timedOut()
                                        ? ", stopped at its time limit"
                                        : o.exitCode() != 0 ? ", exit " + o.exitCode() : "")
                        .append(")\n\n```\n")
                        .append(command(o.step()))
                        .append("\n```\n\n")
                        .append(demote(content(o, root)))
                        .append("\n\n");
            }
            if (any) {
                sections.put(area, md.toString().trim() + "\n");
            }
        }
        return sections;
    }

    static String command(Step step) {
        return "java -cp \"bench/target/classes:$(cat bench/target/classpath.txt)\" -Xmx" + step.heap() + " "
                + step.main() + " " + String.join(" ", step.args());
    }

    /** The bench's own report file when it writes one (--out), else its output without log lines. */
    private static String content(ChildJvm.Outcome o, Path root) throws IOException {
        int out = o.step().args().indexOf("--out");
        if (out >= 0 && out + 1 < o.step().args().size()) {
            Path file = root.resolve(o.step().args().get(out + 1));
            if (Files.isRegularFile(file)) { // the suite deletes it before the step runs
                return Files.readString(file).trim();
            }
        }
        return filter(o.output());
    }

    static String filter(String output) {
        StringBuilder kept = new StringBuilder();
        boolean blank = true;
        for (String line : output.lines().toList()) {
            if (LOG_LINE.matcher(line).find() || line.contains("Exception") && !line.startsWith("|")) {
                continue;
            }
            if (line.isBlank()) {
                if (!blank) {
                    kept.append('\n');
                }
                blank = true;
                continue;
            }
            blank = false;
            kept.append(line).append('\n');
        }
        String text = kept.toString().trim();
        return text.isEmpty() ? "(no readable output; see the step's log)" : text;
    }

    /** Headings of an included report go two levels down, under the step's heading. */
    static String demote(String markdown) {
        StringBuilder out = new StringBuilder();
        boolean fence = false;
        for (String line : markdown.lines().toList()) {
            if (line.startsWith("```")) {
                fence = !fence;
            }
            out.append(!fence && line.startsWith("#") ? "##" + line : line).append('\n');
        }
        return out.toString().trim();
    }
}
