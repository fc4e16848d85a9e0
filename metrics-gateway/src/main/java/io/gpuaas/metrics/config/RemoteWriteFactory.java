package io.gpuaas.metrics.config;

import io.gpuaas.metrics.kafka.GpuScrapePublisher;
import io.gpuaas.metrics.remotewrite.LabelSlots;
import io.gpuaas.metrics.remotewrite.RemoteWriteMetrics;
import io.gpuaas.metrics.remotewrite.RemoteWriteReceiver;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Requires;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import jakarta.inject.Singleton;

/** The remote-write receiver's beans; with {@code remote-write.enabled: false} none is built. */
@Factory
@Requires(property = "gpuaas.metrics-gateway.remote-write.enabled", notEquals = "false")
public class RemoteWriteFactory {

    @Singleton
    RemoteWriteMetrics remoteWriteMetrics(PrometheusRegistry registry) {
        return new RemoteWriteMetrics(registry);
    }

    /** Publishes through the gateway's one GpuScrape producer, which the scrape loops share. */
    @Singleton
    RemoteWriteReceiver remoteWriteReceiver(
            RemoteWriteSettings settings, GpuScrapePublisher publisher, RemoteWriteMetrics metrics) {
        return new RemoteWriteReceiver(
                new LabelSlots(settings.nodeLabels(), settings.targetPodLabels()),
                settings.maxBodyBytes(),
                settings.publishTimeout(),
                publisher::publishAll,
                metrics);
    }
}
