package io.gpuaas.booking.webhook;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.function.IntSupplier;

/**
 * Webhook delivery metrics. Labels are outcomes and attempt results only: never a tenant, endpoint or URL, so the
 * series count does not grow with registrations.
 */
public final class WebhookMetrics {

    /** How a delivery ended. */
    public enum Outcome {
        DELIVERED,
        DEAD_LETTERED,
        /** The endpoint was deleted while the delivery waited. */
        DROPPED
    }

    private final Counter deliveries;
    private final Counter attempts;

    public WebhookMetrics(PrometheusRegistry registry, IntSupplier queued, IntSupplier pending) {
        deliveries = Counter.builder()
                .name("gpuaas_webhook_deliveries_total")
                .help("Notice deliveries to tenant webhooks that ended, by outcome (delivered, dead_lettered, dropped)")
                .labelNames("outcome")
                .register(registry);
        attempts = Counter.builder()
                .name("gpuaas_webhook_attempts_total")
                .help("HTTP attempts to tenant webhooks, by result (2xx, 4xx, 429, 5xx, timeout, connection, refused)")
                .labelNames("result")
                .register(registry);
        GaugeWithCallback.builder()
                .name("gpuaas_webhook_queue_depth")
                .help("Deliveries waiting for a free slot of their endpoint, over all endpoints")
                .callback(cb -> cb.call(queued.getAsInt()))
                .register(registry);
        GaugeWithCallback.builder()
                .name("gpuaas_webhook_pending_deliveries")
                .help("Deliveries started and not yet ended (queued, in flight or waiting to retry)")
                .callback(cb -> cb.call(pending.getAsInt()))
                .register(registry);
    }

    void ended(Outcome outcome) {
        deliveries
                .labelValues(outcome.name().toLowerCase(java.util.Locale.ROOT))
                .inc();
    }

    void attempted(String result) {
        attempts.labelValues(result).inc();
    }
}
