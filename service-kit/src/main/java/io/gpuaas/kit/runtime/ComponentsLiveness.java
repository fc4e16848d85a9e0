package io.gpuaas.kit.runtime;

import io.micronaut.core.async.publisher.Publishers;
import io.micronaut.management.health.indicator.HealthIndicator;
import io.micronaut.management.health.indicator.HealthResult;
import io.micronaut.management.health.indicator.annotation.Liveness;
import jakarta.inject.Singleton;
import org.reactivestreams.Publisher;

/**
 * {@code /health/liveness} is DOWN once some component is dead (a JVM error ended it): only a restart of the pod
 * brings it back. A recovering component stays alive, since it recovers by itself and a restart would only reload.
 */
@Singleton
@Liveness
public class ComponentsLiveness implements HealthIndicator {

    private final ServiceLifecycle lifecycle;

    public ComponentsLiveness(ServiceLifecycle lifecycle) {
        this.lifecycle = lifecycle;
    }

    @Override
    public Publisher<HealthResult> getResult() {
        return Publishers.just(ComponentsReadiness.result(lifecycle.components(), ComponentHealth::alive));
    }
}
