package io.gpuaas.events;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The dead-letter counter, one per registry: several publishers (one per consumer or Streams app) in one process
 * share it, and registering the same name twice on a {@link PrometheusRegistry} would fail.
 */
final class DeadLetterMetrics {

    static final String COUNTER_NAME = "gpuaas_dead_letter_records_total";

    private static final Map<PrometheusRegistry, Counter> COUNTERS = new WeakHashMap<>();

    private DeadLetterMetrics() {}

    static synchronized Counter counter(PrometheusRegistry registry) {
        return COUNTERS.computeIfAbsent(registry, r -> Counter.builder()
                .name(COUNTER_NAME)
                .help("Records that could not be processed and were written to the dead-letter topic, "
                        + "by source topic and reason")
                .labelNames("topic", "reason")
                .register(r));
    }
}
