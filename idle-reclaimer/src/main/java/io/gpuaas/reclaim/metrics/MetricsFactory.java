package io.gpuaas.reclaim.metrics;

import io.micronaut.context.annotation.Factory;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import jakarta.inject.Singleton;

@Factory
public class MetricsFactory {

    @Singleton
    ReclaimerMetrics reclaimerMetrics(PrometheusRegistry registry) {
        return new ReclaimerMetrics(registry);
    }
}
