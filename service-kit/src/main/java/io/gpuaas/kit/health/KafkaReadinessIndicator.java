package io.gpuaas.kit.health;

import io.gpuaas.kit.kafka.KafkaClients;
import io.micronaut.core.async.publisher.Publishers;
import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.HealthIndicator;
import io.micronaut.management.health.indicator.HealthResult;
import io.micronaut.management.health.indicator.annotation.Readiness;
import jakarta.inject.Singleton;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.reactivestreams.Publisher;

/**
 * Readiness follows the Kafka connection: a service that cannot reach the brokers takes no traffic. The check is
 * a cluster description with a short timeout, cached briefly so frequent probes do not load the brokers.
 */
@Singleton
@Readiness
public class KafkaReadinessIndicator implements HealthIndicator {

    private static final long CACHE_NANOS = TimeUnit.SECONDS.toNanos(2);

    private final KafkaClients clients;
    private volatile HealthResult last;
    private volatile long lastAt;

    public KafkaReadinessIndicator(KafkaClients clients) {
        this.clients = clients;
    }

    @Override
    public Publisher<HealthResult> getResult() {
        // The cluster call may block for seconds: never on the event loop.
        return Publishers.fromCompletableFuture(
                () -> CompletableFuture.supplyAsync(this::check, Thread::startVirtualThread));
    }

    private HealthResult check() {
        HealthResult cached = last;
        if (cached != null && System.nanoTime() - lastAt < CACHE_NANOS) {
            return cached;
        }
        HealthResult result;
        try {
            var cluster = clients.admin().describeCluster();
            String clusterId = cluster.clusterId().get(3, TimeUnit.SECONDS);
            int brokers = cluster.nodes().get(3, TimeUnit.SECONDS).size();
            result = HealthResult.builder("kafka", HealthStatus.UP)
                    .details(Map.of("clusterId", clusterId, "brokers", brokers))
                    .build();
        } catch (Exception e) {
            result = HealthResult.builder("kafka", HealthStatus.DOWN)
                    .details(Map.of("error", String.valueOf(e.getMessage())))
                    .build();
        }
        last = result;
        lastAt = System.nanoTime();
        return result;
    }
}
