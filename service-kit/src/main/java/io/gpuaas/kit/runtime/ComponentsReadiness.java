package io.gpuaas.kit.runtime;

import io.micronaut.core.async.publisher.Publishers;
import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.HealthIndicator;
import io.micronaut.management.health.indicator.HealthResult;
import io.micronaut.management.health.indicator.annotation.Readiness;
import jakarta.inject.Singleton;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.reactivestreams.Publisher;

/**
 * {@code /health/readiness} is UP only while every component is running and caught up: a replica still loading or
 * recovering from a broker cut, or a reconcile loop stuck on a failing key, takes the instance out of traffic. The
 * details name each component's state; {@code RoleGatedHealthEndpoint} shows them to admin and metrics roles only.
 */
@Singleton
@Readiness
public class ComponentsReadiness implements HealthIndicator {

    static final String NAME = "components";

    private final ServiceLifecycle lifecycle;

    public ComponentsReadiness(ServiceLifecycle lifecycle) {
        this.lifecycle = lifecycle;
    }

    @Override
    public Publisher<HealthResult> getResult() {
        return Publishers.just(result(lifecycle.components(), ComponentHealth::ready));
    }

    static HealthResult result(List<ServiceComponent> components, Predicate<ComponentHealth> up) {
        Map<String, Object> details = new LinkedHashMap<>();
        boolean all = true;
        for (ServiceComponent component : components) {
            ComponentHealth health = component.health();
            all &= up.test(health);
            details.put(
                    component.name(),
                    Map.of(
                            "state",
                            health.state().name(),
                            "caughtUp",
                            health.caughtUp(),
                            "restarts",
                            health.restarts(),
                            "detail",
                            String.valueOf(health.detail())));
        }
        return HealthResult.builder(NAME, all ? HealthStatus.UP : HealthStatus.DOWN)
                .details(details)
                .build();
    }
}
