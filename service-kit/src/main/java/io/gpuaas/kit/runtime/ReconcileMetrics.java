package io.gpuaas.kit.runtime;

import static io.gpuaas.kit.metrics.SeriesPerRegistry.counter;
import static io.gpuaas.kit.metrics.SeriesPerRegistry.gauge;
import static io.gpuaas.kit.metrics.SeriesPerRegistry.histogram;

import io.gpuaas.kit.metrics.SeriesPerRegistry;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

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

    private static final SeriesPerRegistry<Series> SERIES = new SeriesPerRegistry<>(r -> new Series(
            gauge(r, DEPTH, "Keys waiting for a reconcile worker, by loop", "loop"),
            histogram(r, DURATION, "Time one reconcile of one key took, by loop", "loop"),
            counter(r, FAILURES, "Reconciles that threw, by loop (the key is retried)", "loop"),
            counter(r, TOTAL, "Reconciles run, failed or not, by loop", "loop")));

    private final String loop;
    private final Series series;

    private ReconcileMetrics(String loop, Series series) {
        this.loop = loop;
        this.series = series;
    }

    /** The series of {@code loop} in {@code registry} (a private registry when the service gave none). */
    static ReconcileMetrics of(String loop, PrometheusRegistry registry) {
        ReconcileMetrics metrics = new ReconcileMetrics(loop, SERIES.in(registry));
        metrics.depth(0);
        // Zero series from the start, so a dashboard shows a loop that never failed instead of no data.
        metrics.series.failures.labelValues(loop);
        metrics.series.total.labelValues(loop);
        return metrics;
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
