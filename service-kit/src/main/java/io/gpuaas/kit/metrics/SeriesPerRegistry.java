package io.gpuaas.kit.metrics;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.function.Function;

/**
 * One set of series per registry, for kit components that label their series by component: every reconcile loop (or
 * work consumer, schedule, ...) of a service shares the set its registry got first, since a registry refuses a name
 * registered twice, and a registry that is gone takes its set with it.
 *
 * @param <S> the record holding the set's metrics
 */
public final class SeriesPerRegistry<S> {

    private final Function<PrometheusRegistry, S> register;
    private final Map<PrometheusRegistry, S> sets = new WeakHashMap<>();

    /** {@code register} registers the whole set on a registry; it runs once per registry. */
    public SeriesPerRegistry(Function<PrometheusRegistry, S> register) {
        this.register = register;
    }

    /** The set registered on {@code registry}, registered now if it is the registry's first. */
    public synchronized S in(PrometheusRegistry registry) {
        return sets.computeIfAbsent(registry, register);
    }

    public static Counter counter(PrometheusRegistry registry, String name, String help, String... labels) {
        return Counter.builder().name(name).help(help).labelNames(labels).register(registry);
    }

    public static Gauge gauge(PrometheusRegistry registry, String name, String help, String... labels) {
        return Gauge.builder().name(name).help(help).labelNames(labels).register(registry);
    }

    public static Histogram histogram(PrometheusRegistry registry, String name, String help, String... labels) {
        return Histogram.builder().name(name).help(help).labelNames(labels).register(registry);
    }
}
