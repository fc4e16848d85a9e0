package io.gpuaas.quota;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.quota.config.LeaderElectionSettings;
import io.gpuaas.quota.config.QuotaSettings;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.event.StartupEvent;
import io.micronaut.runtime.event.annotation.EventListener;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import jakarta.annotation.PreDestroy;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the {@link QuotaProjector} in the container: started off the startup thread so /health answers (not ready)
 * while caches sync and bookings are read; stopped on shutdown, which releases the Lease.
 */
@Context
public class QuotaProjectorService {

    private static final Logger LOG = LoggerFactory.getLogger(QuotaProjectorService.class);

    private final QuotaProjector projector;
    private volatile Throwable failure;

    public QuotaProjectorService(KubernetesClient client, KafkaClients kafka, QuotaSettings settings,
                                 LeaderElectionSettings election, PoolCatalog catalog, PrometheusRegistry registry) {
        LOG.info("quota settings: {}; leader election: {}", settings, election);
        this.projector = new QuotaProjector(client, kafka, settings, election, catalog, registry, Clock.systemUTC());
    }

    @EventListener
    void onStartup(StartupEvent event) {
        Thread.ofVirtual().name("quota-projector-start").start(() -> {
            try {
                projector.start();
                LOG.info("quota-projector started");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                failure = e;
                LOG.error("quota-projector failed to start", e);
            }
        });
    }

    public QuotaProjector projector() {
        return projector;
    }

    /** The start failure, if any: liveness reports it so the pod is restarted. */
    public Throwable failure() {
        return failure;
    }

    @PreDestroy
    void stop() {
        projector.close();
    }
}
