package io.gpuaas.quota.http;

import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.quota.QuotaProjectorService;
import io.gpuaas.quota.k8s.Kind;
import io.micronaut.core.async.publisher.Publishers;
import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.HealthIndicator;
import io.micronaut.management.health.indicator.HealthResult;
import io.micronaut.management.health.indicator.annotation.Readiness;
import jakarta.inject.Singleton;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.reactivestreams.Publisher;

/**
 * Ready when the Kubernetes API answers, the informers watch and the bookings table has caught up; before that
 * the projector would plan from a partial view. Kafka readiness comes from service-kit's indicator.
 */
@Singleton
@Readiness
public class KubernetesHealthIndicator implements HealthIndicator {

    private static final long CACHE_NANOS = TimeUnit.SECONDS.toNanos(2);

    private final KubernetesClient client;
    private final QuotaProjectorService service;
    private volatile HealthResult last;
    private volatile long lastAt;

    public KubernetesHealthIndicator(KubernetesClient client, QuotaProjectorService service) {
        this.client = client;
        this.service = service;
    }

    @Override
    public Publisher<HealthResult> getResult() {
        return Publishers.fromCompletableFuture(() -> CompletableFuture.supplyAsync(this::check, Thread::startVirtualThread));
    }

    private HealthResult check() {
        HealthResult cached = last;
        if (cached != null && System.nanoTime() - lastAt < CACHE_NANOS) {
            return cached;
        }
        Map<String, Object> details = new LinkedHashMap<>();
        boolean reachable;
        try {
            client.genericKubernetesResources(Kind.COHORT.context()).list(new ListOptionsBuilder().withLimit(1L).build());
            reachable = true;
        } catch (RuntimeException e) {
            reachable = false;
            details.put("error", String.valueOf(e.getMessage()));
        }
        boolean ready = service.projector().ready();
        details.put("apiReachable", reachable);
        details.put("synced", ready);
        details.put("leader", service.projector().leading());
        HealthResult result = HealthResult.builder("kubernetes", reachable && ready ? HealthStatus.UP : HealthStatus.DOWN)
                .details(details).build();
        last = result;
        lastAt = System.nanoTime();
        return result;
    }
}
