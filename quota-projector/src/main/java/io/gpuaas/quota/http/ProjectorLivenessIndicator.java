package io.gpuaas.quota.http;

import io.gpuaas.quota.QuotaProjectorService;
import io.micronaut.core.async.publisher.Publishers;
import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.HealthIndicator;
import io.micronaut.management.health.indicator.HealthResult;
import io.micronaut.management.health.indicator.annotation.Liveness;
import jakarta.inject.Singleton;
import java.util.Map;
import org.reactivestreams.Publisher;

/** Not alive once the projector failed to start: a restart is the only way back to a working writer. */
@Singleton
@Liveness
public class ProjectorLivenessIndicator implements HealthIndicator {

    private final QuotaProjectorService service;

    public ProjectorLivenessIndicator(QuotaProjectorService service) {
        this.service = service;
    }

    @Override
    public Publisher<HealthResult> getResult() {
        Throwable failure = service.failure();
        return Publishers.just(HealthResult.builder("quota-projector", failure == null ? HealthStatus.UP : HealthStatus.DOWN)
                .details(failure == null ? Map.of() : Map.of("error", String.valueOf(failure.getMessage()))).build());
    }
}
