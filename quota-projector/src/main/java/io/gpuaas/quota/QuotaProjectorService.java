package io.gpuaas.quota;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.kit.k8s.LeaseSettings;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.quota.config.MigLayoutSettings;
import io.gpuaas.quota.config.NodeResourceSettings;
import io.gpuaas.quota.config.QuotaSettings;
import io.micronaut.context.annotation.Factory;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import jakarta.inject.Singleton;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link QuotaProjector} in the container. It is the service's composition root (a service-kit
 * {@code ServiceComponents}), so service-kit's {@code ServiceLifecycle} starts its components in order once the context is up (health answers, not ready, while caches sync and bookings are read)
 * and stops them in reverse on shutdown, which steps down and releases the Lease; {@code ComponentsReadiness} and
 * {@code ComponentsLiveness} report them.
 */
@Factory
public class QuotaProjectorService {

    private static final Logger LOG = LoggerFactory.getLogger(QuotaProjectorService.class);

    /** {@code options}: only tests register one (a clock, a booking-handler wrapper); production takes the defaults. */
    @Singleton
    QuotaProjector projector(
            KubernetesClient client,
            KafkaClients kafka,
            QuotaSettings settings,
            NodeResourceSettings nodeResources,
            MigLayoutSettings mig,
            LeaseSettings election,
            PoolCatalog catalog,
            PrometheusRegistry registry,
            Optional<QuotaProjector.Options> options) {
        LOG.info("quota settings: {}; {}; {}; leader election: {}", settings, nodeResources, mig, election);
        return new QuotaProjector(
                client,
                kafka,
                settings,
                nodeResources,
                mig,
                election,
                catalog,
                registry,
                options.orElseGet(QuotaProjector.Options::defaults));
    }
}
