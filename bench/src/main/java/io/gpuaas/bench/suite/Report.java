package io.gpuaas.bench.suite;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Renders BENCHMARKS.md from the template, the results and the sections of this run. */
final class Report {

    /** What the report is made of. */
    record Inputs(
            boolean quick,
            Machine before,
            Machine after,
            Duration took,
            Results results,
            Map<String, String> sections,
            String reliability) {}

    private Report() {}

    static String render(Inputs in) throws IOException {
        List<Targets.Row> targets = new Targets(in.results()).rows();
        if (in.results().isEmpty()) {
            throw new IllegalStateException("the run measured nothing: refusing to write an empty BENCHMARKS.md");
        }
        String template = template();
        return template.replace("{{run}}", run(in))
                .replace("{{targets}}", targetTable(targets))
                .replace("{{baselines}}", baselines(in.results()))
                .replace("{{growth}}", growth(in.results()))
                .replace("{{problems}}", problems(in.results()))
                .replace("{{sections}}", String.join("\n", in.sections().values()))
                .replace("{{reliability}}", in.reliability());
    }

    static String targetTable(List<Targets.Row> rows) {
        StringBuilder md = new StringBuilder(
                "| target (from the issues) | measured | met? | baseline in the same run |\n" + "|---|---|---|---|\n");
        rows.forEach(r -> md.append("| ")
                .append(r.target())
                .append(" | ")
                .append(r.measured())
                .append(" | ")
                .append(r.met())
                .append(" | ")
                .append(r.baseline())
                .append(" |\n"));
        return md.toString().trim();
    }

    private static String run(Inputs in) {
        Machine b = in.before();
        return String.format(
                                Locale.ROOT,
                                """
                **%s run** of `bench/run%s`, %s → %s UTC (%d min %d s).

                | machine | |
                |---|---|
                | cores | %d |
                | CPU | %s |
                | memory | %.1f GiB |
                | JDK | %s |
                | load average (1/5/15 min) before | %s |
                | load average after | %s |
                | broker | in-process single-node KRaft Kafka 4.1.1 (test-support `EmbeddedKafka`), one per bench JVM |
                """,
                                in.quick() ? "Quick (smoke-test sizes, 1 run each)" : "Full",
                                in.quick() ? " --quick" : "",
                                b.at().toString().substring(0, 19).replace('T', ' '),
                                in.after().at().toString().substring(11, 19),
                                in.took().toMinutes(),
                                in.took().toSecondsPart(),
                                b.cores(),
                                b.cpuModel(),
                                b.memoryGib(),
                                b.jdk(),
                                b.loadAverage(),
                                in.after().loadAverage())
                        .trim()
                + (b.load1() > b.cores() || in.after().load1() > in.after().cores()
                        ? "\n\nThe load average exceeded the core count: other jobs shared the cores, so absolute figures are "
                                + "pessimistic; compare with the baselines."
                        : "");
    }

    private static String baselines(Results r) {
        StringBuilder md =
                new StringBuilder("Apache Kafka's own tools (kafka-tools 4.1.1) against one embedded broker, "
                        + "like every bench's own broker: `ProducerPerformance` (512-byte records, acks=all, idempotent, snappy, "
                        + "linger 5 ms, 24 partitions), `ConsumerPerformance` (the same topic from the start), "
                        + "`EndToEndLatency` (one record at a time, produce → consume, acks=all; whole milliseconds).\n\n"
                        + "| baseline | figure |\n|---|---|\n");
        row(md, r, "raw producer, records/s", "baseline.producer.records_per_s", "records/s");
        row(md, r, "raw producer, p99 send latency under full load", "baseline.producer.p99_ms", "ms");
        row(md, r, "raw consumer, records/s", "baseline.consumer.records_per_s", "records/s");
        row(md, r, "raw produce → consume round trip, p50", "baseline.roundtrip.p50_ms", "ms");
        row(md, r, "raw produce → consume round trip, p99", "baseline.roundtrip.p99_ms", "ms");
        md.append("\nEach service bench also measures its own baseline in its own run (shown beside its figures): "
                + "booking's raw produce→consume at 500/s, quota's API-server create→watch and Kafka round trip, the "
                + "reclaimer's raw consumer of the same topic, the gateway's raw producer of the same records.\n");
        return md.toString().trim();
    }

    private static void row(StringBuilder md, Results r, String label, String key, String unit) {
        md.append("| ")
                .append(label)
                .append(" | ")
                .append(r.get(key).map(f -> f.render(unit)).orElse("not measured"))
                .append(" |\n");
    }

    private static String growth(Results r) {
        String text = new Growth(r).render().trim();
        return text.isEmpty() ? "Nothing measured at several sizes in this run." : text;
    }

    private static String problems(Results r) {
        if (r.problems().isEmpty()) {
            return "None: every step ended normally and its figures were read.";
        }
        StringBuilder md = new StringBuilder();
        r.problems().forEach(p -> md.append("- ").append(p).append('\n'));
        return md.toString().trim();
    }

    private static String template() throws IOException {
        try (InputStream in = Report.class.getResourceAsStream("BENCHMARKS.template.md")) {
            if (in == null) {
                throw new IOException("BENCHMARKS.template.md is not on the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
