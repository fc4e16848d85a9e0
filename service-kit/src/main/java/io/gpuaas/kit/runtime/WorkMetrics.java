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
 * The work consumers' series, labelled by consumer (the component's name). One set per registry, shared by every
 * work consumer of a service, as {@link ReconcileMetrics} does for loops.
 */
final class WorkMetrics {

    static final String OPEN = "gpuaas_work_open_records";
    static final String DURATION = "gpuaas_work_duration_seconds";
    static final String COMPLETED = "gpuaas_work_completed_total";
    static final String FAILED = "gpuaas_work_failed_total";
    static final String COMMITS = "gpuaas_work_commits_total";

    private record Series(Gauge open, Histogram duration, Counter completed, Counter failed, Counter commits) {}

    private static final SeriesPerRegistry<Series> SERIES = new SeriesPerRegistry<>(r -> new Series(
            gauge(r, OPEN, "Records handed to the work handler and not finished, by consumer", "consumer"),
            histogram(
                    r,
                    DURATION,
                    "Time from handing a record to the work handler to its completion, by consumer",
                    "consumer"),
            counter(r, COMPLETED, "Records whose work completed, by consumer", "consumer"),
            counter(r, FAILED, "Records whose work failed and that were dead-lettered, by consumer", "consumer"),
            counter(r, COMMITS, "Offset commits that moved a position, by consumer", "consumer")));

    private final String consumer;
    private final Series series;

    private WorkMetrics(String consumer, Series series) {
        this.consumer = consumer;
        this.series = series;
    }

    /** The series of {@code consumer} in {@code registry} (a private registry when the service gave none). */
    static WorkMetrics of(String consumer, PrometheusRegistry registry) {
        WorkMetrics metrics = new WorkMetrics(consumer, SERIES.in(registry));
        metrics.open(0);
        // Zero series from the start, so a dashboard shows a consumer that never failed instead of no data.
        metrics.series.completed.labelValues(consumer);
        metrics.series.failed.labelValues(consumer);
        metrics.series.commits.labelValues(consumer);
        return metrics;
    }

    void open(int records) {
        series.open.labelValues(consumer).set(records);
    }

    void completed(long nanos) {
        series.duration.labelValues(consumer).observe(nanos / 1e9);
        series.completed.labelValues(consumer).inc();
    }

    void failed() {
        series.failed.labelValues(consumer).inc();
    }

    void committed() {
        series.commits.labelValues(consumer).inc();
    }
}
