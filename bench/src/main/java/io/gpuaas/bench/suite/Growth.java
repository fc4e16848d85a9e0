package io.gpuaas.bench.suite;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The "how it grows" tables: 1,000 → 10,000 GPUs and 100 → 1,000 tenants, memory of each service included. */
final class Growth {

    static final List<String> JVMS =
            List.of("booking-service", "quota-projector", "idle-reclaimer", "metrics-gateway", "local-stack-host");
    private static final Pattern STACK = Pattern.compile("scale\\.(\\d+)g\\.(\\d+)t\\.ready_s");
    private static final Pattern RENDER = Pattern.compile("render\\.(\\d+)g\\.(\\d+)t\\.text_ms");

    private final Results r;

    Growth(Results results) {
        this.r = results;
    }

    String render() {
        StringBuilder md = new StringBuilder();
        byGpus(md);
        byTenants(md);
        stacks(md);
        renders(md);
        return md.toString();
    }

    private void byGpus(StringBuilder md) {
        TreeSet<Integer> gpus = new TreeSet<>();
        sizes("ingest\\.(\\d+)g\\.published_per_s", gpus);
        sizes("reclaim\\.(\\d+)g\\.pipeline_per_s", gpus);
        if (gpus.isEmpty()) {
            return;
        }
        md.append("### By fleet size (GPUs)\n\n| GPUs | DCGM parsed-and-published /s | raw producer /s (same run) "
                + "| reclaimer pipeline samples/s | raw consumer /s (same run) |\n|---|---|---|---|---|\n");
        for (int g : gpus) {
            md.append("| ")
                    .append(String.format("%,d", g))
                    .append(" | ")
                    .append(cell("ingest." + g + "g.published_per_s"))
                    .append(" | ")
                    .append(cell("ingest." + g + "g.raw_producer_per_s"))
                    .append(" | ")
                    .append(cell("reclaim." + g + "g.pipeline_per_s"))
                    .append(" | ")
                    .append(cell("reclaim." + g + "g.raw_consumer_per_s"))
                    .append(" |\n");
        }
        md.append('\n');
    }

    private void byTenants(StringBuilder md) {
        TreeSet<Integer> tenants = new TreeSet<>();
        sizes("quota\\.(\\d+)t\\.workload_state_p99_ms", tenants);
        if (tenants.isEmpty()) {
            return;
        }
        md.append(
                "### By tenants (quota-projector)\n\n| tenants | boundary → ClusterQueue p99, spread | raw create at the "
                        + "same instants p99 | boundary → ClusterQueue p99, one instant | spread, one core busy "
                        + "| one instant, one core busy | Workload → quota-state p99 "
                        + "| Kafka round trip p99 (same run) |\n|---|---|---|---|---|---|---|---|\n");
        for (int t : tenants) {
            String p = "quota." + t + "t.";
            md.append("| ")
                    .append(String.format("%,d", t))
                    .append(" | ")
                    .append(cell(p + "boundary_spread_p99_ms", "ms"))
                    .append(" | ")
                    .append(cell(p + "raw_spread_p99_ms", "ms"))
                    .append(" | ")
                    .append(cell(p + "boundary_instant_p99_ms", "ms"))
                    .append(" | ")
                    .append(cell(p + "boundary_spread_busy_p99_ms", "ms"))
                    .append(" | ")
                    .append(cell(p + "boundary_instant_busy_p99_ms", "ms"))
                    .append(" | ")
                    .append(cell(p + "workload_state_p99_ms", "ms"))
                    .append(" | ")
                    .append(cell(p + "kafka_rt_p99_ms", "ms"))
                    .append(" |\n");
        }
        md.append(
                "\nbooking-service has no tenant-count parameter in its bench (decisions are per pool, not per tenant), "
                        + "so its figures are not split by tenants.\n\n");
    }

    private void stacks(StringBuilder md) {
        List<int[]> sizes = pairs(STACK);
        if (sizes.isEmpty()) {
            return;
        }
        md.append("### The whole local stack at each size: memory per service, ingest, /metrics over HTTP\n\n")
                .append(
                        "Each row is one start of `deploy/local` (`LocalStack --gpus G --tenants T`, every service in its own "
                                + "JVM with the stack's flags: C1 only, SerialGC, -Xmx384m), left running, then measured: heap in use "
                                + "right after a full GC (`jcmd <pid> GC.run`, then `GC.heap_info`) and RSS (`/proc/<pid>/status`), "
                                + "in MiB; metrics-gateway's `gpuaas_gpu_samples_published_total` rate while its scrapers poll the "
                                + "simulated exporters (every 5 s); `/metrics` fetched 10 times over HTTP with the demo `prometheus` "
                                + "token (median and max ms, series, KiB).\n\n| GPUs | tenants | ready s |");
        JVMS.forEach(j -> md.append(' ').append(j).append(" heap / RSS |"));
        md.append(" published samples/s | /metrics ms (p50 / max) | series | KiB |\n|---|---|---|");
        JVMS.forEach(j -> md.append("---|"));
        md.append("---|---|---|---|\n");
        for (int[] s : sizes) {
            String p = "scale." + s[0] + "g." + s[1] + "t.";
            md.append("| ")
                    .append(String.format("%,d", s[0]))
                    .append(" | ")
                    .append(String.format("%,d", s[1]))
                    .append(" | ")
                    .append(value(p + "ready_s"))
                    .append(" |");
            JVMS.forEach(j -> md.append(' ')
                    .append(value(p + "heap_mib." + j))
                    .append(" / ")
                    .append(value(p + "rss_mib." + j))
                    .append(" |"));
            md.append(' ')
                    .append(value(p + "ingest_samples_per_s"))
                    .append(" | ")
                    .append(value(p + "metrics_render_p50_ms"))
                    .append(" / ")
                    .append(value(p + "metrics_render_max_ms"))
                    .append(" | ")
                    .append(value(p + "metrics_series"))
                    .append(" | ")
                    .append(value(p + "metrics_kib"))
                    .append(" |\n");
        }
        md.append('\n');
    }

    private void renders(StringBuilder md) {
        List<int[]> sizes = pairs(RENDER);
        if (sizes.isEmpty()) {
            return;
        }
        md.append(
                "### metrics-gateway `/metrics` render, in process (RenderBenchmark)\n\n| GPUs | tenants | series | KiB "
                        + "| render ms, Prometheus text | baseline: library writer ms |\n|---|---|---|---|---|---|\n");
        for (int[] s : sizes) {
            String p = "render." + s[0] + "g." + s[1] + "t.";
            md.append("| ")
                    .append(String.format("%,d", s[0]))
                    .append(" | ")
                    .append(String.format("%,d", s[1]))
                    .append(" | ")
                    .append(value(p + "series"))
                    .append(" | ")
                    .append(value(p + "kib"))
                    .append(" | ")
                    .append(cell(p + "text_ms", "ms"))
                    .append(" | ")
                    .append(cell(p + "baseline_ms", "ms"))
                    .append(" |\n");
        }
        md.append('\n');
    }

    private void sizes(String regex, TreeSet<Integer> into) {
        Pattern p = Pattern.compile(regex);
        r.keys().stream().map(p::matcher).filter(Matcher::matches).forEach(m -> into.add(Integer.parseInt(m.group(1))));
    }

    private List<int[]> pairs(Pattern p) {
        List<int[]> out = new ArrayList<>();
        r.keys().stream()
                .map(p::matcher)
                .filter(Matcher::matches)
                .forEach(m -> out.add(new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))}));
        out.sort((a, b) -> a[0] != b[0] ? Integer.compare(a[0], b[0]) : Integer.compare(a[1], b[1]));
        return out;
    }

    private String cell(String key) {
        return cell(key, "");
    }

    private String cell(String key, String unit) {
        return r.get(key).map(f -> f.render(unit)).orElse("—");
    }

    private String value(String key) {
        Optional<Figure> f = r.get(key);
        return f.map(x -> Numbers.format(x.median())).orElse("—");
    }
}
