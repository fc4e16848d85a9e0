package io.gpuaas.kit.metrics;

import io.micronaut.context.annotation.Factory;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import jakarta.inject.Singleton;

/** One registry per application context (not the JVM-global default), so tests stay isolated. */
@Factory
public class PrometheusRegistryFactory {

    @Singleton
    PrometheusRegistry prometheusRegistry() {
        return new PrometheusRegistry();
    }
}
