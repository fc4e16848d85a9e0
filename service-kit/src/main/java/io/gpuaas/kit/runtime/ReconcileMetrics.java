package io.gpuaas.kit.runtime;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The reconcile loops' series, labelled by loop. One set per registry: every loop of a service shares it, and a
 * registry refuses a name registered twice.
 */
final class ReconcileMetrics {

    static final String DEPTH = "gpuaas_reconcile_queue_depth";
    static final String DURATION = "gpuaas_reconcile_duration_seconds";
    static final String FAILURES = "gpuaas_reconcile_failures_total";
    static final String TOTAL = "gpuaas_reconcile_total";

    private record Series(Gauge depth, Histogram duration, Counter failures, Counter total) {}

    private static final Map<PrometheusRegistry, Series> SERIES = new WeakHashMap<>();

    private final String loop;
    private final Series series;

    private ReconcileMetrics(String loop, Series series) {
        this.loop = loop;
        this.series = series;
    }

    /** The series of {@code loop} in {@code registry} (a private registry when the service gave none). */
    static ReconcileMetrics of(String loop, PrometheusRegistry registry) {
        ReconcileMetrics metrics = new ReconcileMetrics(loop, series(registry));
        metrics.depth(0);
        // Zero series from the start, so a dashboard shows a loop that never failed instead of no data.
        metrics.series.failures.labelValues(loop);
        metrics.series.total.labelValues(loop);
        return metrics;
    }

    private static synchronized Series series(PrometheusRegistry registry) {
        return SERIES.computeIfAbsent(
                registry,
                r -> new Series(
                        Gauge.builder()
                                .name(DEPTH)
                                .help("Keys waiting for a reconcile worker, by loop")
                                .labelNames("loop")
                                .register(r),
                        Histogram.builder()
                                .name(DURATION)
                                .help("Time one reconcile of one key took, by loop")
                                .labelNames("loop")
                                .register(r),
                        Counter.builder()
                                .name(FAILURES)
                                .help("Reconciles that threw, by loop (the key is retried)")
                                .labelNames("loop")
                                .register(r),
                        Counter.builder()
                                .name(TOTAL)
                                .help("Reconciles run, failed or not, by loop")
                                .labelNames("loop")
                                .register(r)));
    }

    void depth(int keys) {
        series.depth.labelValues(loop).set(keys);
    }

    void reconciled(long nanos, boolean failed) {
        series.duration.labelValues(loop).observe(nanos / 1e9);
        series.total.labelValues(loop).inc();
        if (failed) {
            series.failures.labelValues(loop).inc();
        }
    }
}
