package io.gpuaas.quota.it;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;

/** Reads counter and gauge values from a registry, as a scrape would. */
final class Metrics {

    private Metrics() {}

    /** Sum of every series of {@code name}, whatever its labels. */
    static double sum(PrometheusRegistry registry, String name) {
        return sum(registry, name, null, null);
    }

    /** Sum of the series of {@code name} whose label {@code label} is {@code value} (any series when label is null). */
    static double sum(PrometheusRegistry registry, String name, String label, String value) {
        double total = 0;
        for (var snapshot : registry.scrape()) {
            if (!snapshot.getMetadata().getName().equals(name)) {
                continue;
            }
            if (snapshot instanceof CounterSnapshot counter) {
                total += counter.getDataPoints().stream()
                        .filter(d -> label == null || value.equals(d.getLabels().get(label)))
                        .mapToDouble(CounterSnapshot.CounterDataPointSnapshot::getValue)
                        .sum();
            } else if (snapshot instanceof GaugeSnapshot gauge) {
                total += gauge.getDataPoints().stream()
                        .filter(d -> label == null || value.equals(d.getLabels().get(label)))
                        .mapToDouble(GaugeSnapshot.GaugeDataPointSnapshot::getValue)
                        .sum();
            }
        }
        return total;
    }
}
