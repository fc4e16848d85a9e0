package io.gpuaas.metrics;

import io.gpuaas.events.CloudEvents;
import io.micronaut.runtime.Micronaut;

/** metrics-gateway: dcgm-exporter scrapes into Kafka; queue depth, idleness and tenant use out to Prometheus and KEDA. */
public final class MetricsGatewayApplication {

    /** The {@code ce_source} of every event this service writes. */
    public static final String SOURCE = "/gpuaas/metrics-gateway";

    private MetricsGatewayApplication() {}

    public static void main(String[] args) {
        CloudEvents.setProcessSource(SOURCE);
        Micronaut.run(MetricsGatewayApplication.class, args);
    }
}
