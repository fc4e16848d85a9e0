package io.gpuaas.kit.k8s;

import static io.gpuaas.kit.metrics.SeriesPerRegistry.counter;

import io.gpuaas.kit.metrics.SeriesPerRegistry;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * The informer caches' series, labelled by cache ({@code informer}) and kind. One set per registry: every cache of a
 * service shares it, and a registry refuses a name registered twice. Object names never become labels.
 */
final class InformerMetrics {

    static final String EVENTS = "gpuaas_informer_events_total";
    static final String HANDLER_FAILURES = "gpuaas_informer_handler_failures_total";
    static final String WATCH_ERRORS = "gpuaas_informer_watch_errors_total";

    private record Series(Counter events, Counter handlerFailures, Counter watchErrors) {}

    private static final SeriesPerRegistry<Series> SERIES = new SeriesPerRegistry<>(r -> new Series(
            counter(
                    r,
                    EVENTS,
                    "Informer events handed to the service's handler, by cache and kind",
                    "informer",
                    "kind"),
            counter(
                    r,
                    HANDLER_FAILURES,
                    "Informer events whose handler threw, by cache and kind (the cache keeps the object)",
                    "informer",
                    "kind"),
            counter(
                    r,
                    WATCH_ERRORS,
                    "List or watch failures an informer retried or stopped on, by cache and kind",
                    "informer",
                    "kind")));

    private final String informer;
    private final Series series;

    private InformerMetrics(String informer, Series series) {
        this.informer = informer;
        this.series = series;
    }

    static InformerMetrics of(String informer, PrometheusRegistry registry) {
        return new InformerMetrics(informer, SERIES.in(registry));
    }

    void handled(String kind, boolean failed) {
        series.events.labelValues(informer, kind).inc();
        if (failed) {
            series.handlerFailures.labelValues(informer, kind).inc();
        }
    }

    void watchError(String kind) {
        series.watchErrors.labelValues(informer, kind).inc();
    }

    /** Zero series for {@code kind}, so a dashboard shows a cache that never failed instead of no data. */
    void declare(String kind) {
        series.events.labelValues(informer, kind);
        series.handlerFailures.labelValues(informer, kind);
        series.watchErrors.labelValues(informer, kind);
    }
}
