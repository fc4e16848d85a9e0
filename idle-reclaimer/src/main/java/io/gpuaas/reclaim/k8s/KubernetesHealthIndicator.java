package io.gpuaas.reclaim.k8s;

import io.micronaut.core.async.publisher.Publishers;
import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.HealthIndicator;
import io.micronaut.management.health.indicator.HealthResult;
import io.micronaut.management.health.indicator.annotation.Readiness;
import jakarta.inject.Singleton;
import java.util.Map;
import org.reactivestreams.Publisher;

/**
 * Readiness follows the Kubernetes API: without synced, watching informers the reclaimer cannot tell who owns a
 * GPU, so it must not be sent traffic (and the stream would only drop samples).
 */
@Singleton
@Readiness
public class KubernetesHealthIndicator implements HealthIndicator {

    private final PodOwnerIndex owners;
    private final WorkloadDirectory directory;

    public KubernetesHealthIndicator(PodOwnerIndex owners, WorkloadDirectory directory) {
        this.owners = owners;
        this.directory = directory;
    }

    @Override
    public Publisher<HealthResult> getResult() {
        boolean synced = owners.synced() && directory.synced();
        boolean watching = directory.watching();
        HealthStatus status = synced && watching ? HealthStatus.UP : HealthStatus.DOWN;
        return Publishers.just(HealthResult.builder("kubernetes", status)
                .details(Map.of("synced", synced, "watching", watching))
                .build());
    }
}
