package io.gpuaas.bench.metrics;

import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The baseline: the same series (names, labels, values) built as prometheus-metrics snapshots, i.e. what a
 * MultiCollector on the shared registry would have to do per scrape before the library writer runs.
 */
final class ModelBaseline {

    private final Map<String, List<String[]>> families = new LinkedHashMap<>();

    /** Reads back the sample lines of a Prometheus text exposition (simple values: no commas or quotes inside). */
    ModelBaseline(String exposition) {
        exposition.lines().filter(l -> !l.startsWith("#") && !l.isBlank()).forEach(line -> {
            int brace = line.indexOf('{');
            int space = line.lastIndexOf(' ');
            String name = brace < 0 ? line.substring(0, space) : line.substring(0, brace);
            List<String> parts = new ArrayList<>();
            if (brace >= 0) {
                for (String pair :
                        line.substring(brace + 1, line.lastIndexOf('}')).split(",")) {
                    int eq = pair.indexOf('=');
                    parts.add(pair.substring(0, eq));
                    parts.add(pair.substring(eq + 2, pair.length() - 1));
                }
            }
            parts.add(line.substring(space + 1));
            families.computeIfAbsent(name.replace("_total", "_count_of"), k -> new ArrayList<>())
                    .add(parts.toArray(String[]::new));
        });
    }

    MetricSnapshots build() {
        List<MetricSnapshot> out = new ArrayList<>(families.size());
        families.forEach((name, points) -> {
            GaugeSnapshot.Builder family = GaugeSnapshot.builder().name(name).help(name);
            for (String[] p : points) {
                String[] labels = java.util.Arrays.copyOf(p, p.length - 1);
                family.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder()
                        .value(Double.parseDouble(p[p.length - 1].replace("+Inf", "Infinity")))
                        .labels(labels.length == 0 ? Labels.EMPTY : Labels.of(labels))
                        .build());
            }
            out.add(family.build());
        });
        return new MetricSnapshots(out);
    }
}
