package io.gpuaas.kit.k8s;

import static io.gpuaas.kit.metrics.SeriesPerRegistry.counter;
import static io.gpuaas.kit.metrics.SeriesPerRegistry.gauge;
import static io.gpuaas.kit.metrics.SeriesPerRegistry.histogram;

import io.gpuaas.kit.metrics.SeriesPerRegistry;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * The leader schedules' series, labelled by schedule. One set per registry: every schedule of a service shares it,
 * and a registry refuses a name registered twice. Task keys (a scrape target's URL) never become labels.
 */
final class LeaderTaskMetrics {

    static final String RUNS = "gpuaas_leader_task_runs_total";
    static final String FAILURES = "gpuaas_leader_task_failures_total";
    static final String DURATION = "gpuaas_leader_task_duration_seconds";
    static final String LEADING = "gpuaas_leader_schedule_leading";

    private record Series(Counter runs, Counter failures, Histogram duration, Gauge leading) {}

    private static final SeriesPerRegistry<Series> SERIES = new SeriesPerRegistry<>(r -> new Series(
            counter(r, RUNS, "Runs of leader-scoped tasks, failed or not, by schedule", "schedule"),
            counter(
                    r,
                    FAILURES,
                    "Runs of leader-scoped tasks that threw, by schedule (the task runs again)",
                    "schedule"),
            histogram(r, DURATION, "Time one run of a leader-scoped task took, by schedule", "schedule"),
            gauge(r, LEADING, "1 while this replica leads and runs the schedule's tasks, else 0", "schedule")));

    private final String schedule;
    private final Series series;

    private LeaderTaskMetrics(String schedule, Series series) {
        this.schedule = schedule;
        this.series = series;
    }

    static LeaderTaskMetrics of(String schedule, PrometheusRegistry registry) {
        LeaderTaskMetrics metrics = new LeaderTaskMetrics(schedule, SERIES.in(registry));
        // Zero series from the start, so a dashboard shows a schedule that never failed instead of no data.
        metrics.series.runs.labelValues(schedule);
        metrics.series.failures.labelValues(schedule);
        metrics.leading(false);
        return metrics;
    }

    void ran(long nanos, boolean failed) {
        series.duration.labelValues(schedule).observe(nanos / 1e9);
        series.runs.labelValues(schedule).inc();
        if (failed) {
            series.failures.labelValues(schedule).inc();
        }
    }

    void leading(boolean leading) {
        series.leading.labelValues(schedule).set(leading ? 1 : 0);
    }
}
