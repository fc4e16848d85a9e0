package io.gpuaas.metrics.health;

import io.gpuaas.metrics.Gateway;
import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.HealthIndicator;
import io.micronaut.management.health.indicator.HealthResult;
import io.micronaut.management.health.indicator.annotation.Readiness;
import io.micronaut.core.async.publisher.Publishers;
import jakarta.inject.Singleton;
import java.util.Map;
import org.reactivestreams.Publisher;

/**
 * Ready when the Kubernetes watches (tenant namespaces, exporter discovery) are live and the projections have
 * their partitions; Kafka itself is checked by the service kit's indicator.
 */
@Singleton
@Readiness
public class GatewayReadinessIndicator implements HealthIndicator {

    private final Gateway gateway;

    public GatewayReadinessIndicator(Gateway gateway) {
        this.gateway = gateway;
    }

    @Override
    public Publisher<HealthResult> getResult() {
        boolean kubernetes = gateway.kubernetesWatching();
        boolean projections = gateway.projectionsRunning();
        HealthStatus status = kubernetes && projections ? HealthStatus.UP : HealthStatus.DOWN;
        return Publishers.just(HealthResult.builder("metrics-gateway", status)
                .details(Map.of("kubernetesWatching", kubernetes, "projectionsAssigned", projections)).build());
    }
}
