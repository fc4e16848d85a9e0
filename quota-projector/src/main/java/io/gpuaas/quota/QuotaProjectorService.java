package io.gpuaas.quota;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.kit.runtime.ServiceComponent;
import io.gpuaas.quota.config.LeaderElectionSettings;
import io.gpuaas.quota.config.MigLayoutSettings;
import io.gpuaas.quota.config.NodeResourceSettings;
import io.gpuaas.quota.config.QuotaSettings;
import io.micronaut.context.annotation.Factory;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link QuotaProjector} in the container: its components are beans, so service-kit's {@code ServiceLifecycle}
 * starts them in order once the context is up (health answers, not ready, while caches sync and bookings are read)
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
            LeaderElectionSettings election,
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

    @Singleton
    @Named("kube-cache")
    ServiceComponent kubeCache(QuotaProjector projector) {
        return component(projector, "kube-cache");
    }

    @Singleton
    @Named("booking-table")
    ServiceComponent bookingTable(QuotaProjector projector) {
        return component(projector, "booking-table");
    }

    @Singleton
    @Named("leader-duties")
    ServiceComponent leaderDuties(QuotaProjector projector) {
        return component(projector, "leader-duties");
    }

    @Singleton
    @Named("quota-writer")
    ServiceComponent quotaWriter(QuotaProjector projector) {
        return component(projector, "quota-writer");
    }

    @Singleton
    @Named("queue-writer")
    ServiceComponent queueWriter(QuotaProjector projector) {
        return component(projector, "queue-writer");
    }

    @Singleton
    @Named("quota-planner")
    ServiceComponent quotaPlanner(QuotaProjector projector) {
        return component(projector, "quota-planner");
    }

    @Singleton
    @Named("quota-leadership")
    ServiceComponent quotaLeadership(QuotaProjector projector) {
        return component(projector, "quota-leadership");
    }

    @Singleton
    @Named("booking-notices")
    ServiceComponent bookingNotices(QuotaProjector projector) {
        return component(projector, "booking-notices");
    }

    @Singleton
    @Named("notice-writer")
    ServiceComponent noticeWriter(QuotaProjector projector) {
        return component(projector, "notice-writer");
    }

    @Singleton
    @Named("mig-layouts")
    ServiceComponent migLayouts(QuotaProjector projector) {
        return component(projector, "mig-layouts");
    }

    private static ServiceComponent component(QuotaProjector projector, String name) {
        return projector.components().stream()
                .filter(c -> c.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no component " + name));
    }
}
