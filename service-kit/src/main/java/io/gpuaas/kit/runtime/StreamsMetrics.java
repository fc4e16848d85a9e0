package io.gpuaas.kit.runtime;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.Map;
import java.util.WeakHashMap;
import org.apache.kafka.streams.KafkaStreams;

/**
 * The Streams applications' series, labelled by application (the component's name). One set per registry, as for
 * {@link ReconcileMetrics}: every application of a service shares it.
 */
final class StreamsMetrics {

    static final String STATE = "gpuaas_streams_client_state";
    static final String RESTARTS = "gpuaas_streams_restarts_total";

    private record Series(Gauge state, Counter restarts) {}

    private static final Map<PrometheusRegistry, Series> SERIES = new WeakHashMap<>();

    private final String application;
    private final Series series;

    private StreamsMetrics(String application, Series series) {
        this.application = application;
        this.series = series;
    }

    static StreamsMetrics of(String application, PrometheusRegistry registry) {
        StreamsMetrics metrics = new StreamsMetrics(application, series(registry));
        metrics.state(null);
        metrics.series.restarts.labelValues(application);
        return metrics;
    }

    private static synchronized Series series(PrometheusRegistry registry) {
        return SERIES.computeIfAbsent(
                registry,
                r -> new Series(
                        Gauge.builder()
                                .name(STATE)
                                .help("1 for the state the application's current Kafka Streams client is in, else 0")
                                .labelNames("application", "state")
                                .register(r),
                        Counter.builder()
                                .name(RESTARTS)
                                .help("Kafka Streams clients replaced after a failure, by application")
                                .labelNames("application")
                                .register(r)));
    }

    /** The current client's state; null when there is no client (all zero). */
    void state(KafkaStreams.State now) {
        for (KafkaStreams.State state : KafkaStreams.State.values()) {
            series.state.labelValues(application, state.name()).set(state == now ? 1 : 0);
        }
    }

    void restarted() {
        series.restarts.labelValues(application).inc();
    }
}
