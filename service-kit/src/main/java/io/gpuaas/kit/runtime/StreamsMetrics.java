package io.gpuaas.kit.runtime;

import static io.gpuaas.kit.metrics.SeriesPerRegistry.counter;
import static io.gpuaas.kit.metrics.SeriesPerRegistry.gauge;

import io.gpuaas.kit.metrics.SeriesPerRegistry;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.apache.kafka.streams.KafkaStreams;

/**
 * The Streams applications' series, labelled by application (the component's name). One set per registry, as for
 * {@link ReconcileMetrics}: every application of a service shares it.
 */
final class StreamsMetrics {

    static final String STATE = "gpuaas_streams_client_state";
    static final String RESTARTS = "gpuaas_streams_restarts_total";

    private record Series(Gauge state, Counter restarts) {}

    private static final SeriesPerRegistry<Series> SERIES = new SeriesPerRegistry<>(r -> new Series(
            gauge(
                    r,
                    STATE,
                    "1 for the state the application's current Kafka Streams client is in, else 0",
                    "application",
                    "state"),
            counter(r, RESTARTS, "Kafka Streams clients replaced after a failure, by application", "application")));

    private final String application;
    private final Series series;

    private StreamsMetrics(String application, Series series) {
        this.application = application;
        this.series = series;
    }

    static StreamsMetrics of(String application, PrometheusRegistry registry) {
        StreamsMetrics metrics = new StreamsMetrics(application, SERIES.in(registry));
        metrics.state(null);
        metrics.series.restarts.labelValues(application);
        return metrics;
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
