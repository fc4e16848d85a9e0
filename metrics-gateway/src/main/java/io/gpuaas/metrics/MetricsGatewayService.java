package io.gpuaas.metrics;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.kit.k8s.LeaseSettings;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.metrics.config.KubernetesSettings;
import io.gpuaas.metrics.config.LedgerSettings;
import io.gpuaas.metrics.config.ProjectionSettings;
import io.gpuaas.metrics.config.RemoteWriteSettings;
import io.gpuaas.metrics.config.ScrapeSettings;
import io.gpuaas.metrics.config.UnderuseSettings;
import io.gpuaas.metrics.config.UsageSettings;
import io.gpuaas.metrics.cost.Costs;
import io.gpuaas.metrics.kafka.ProjectionHook;
import io.gpuaas.metrics.ledger.LedgerSnapshots;
import io.gpuaas.metrics.metrics.LedgerMetrics;
import io.gpuaas.metrics.metrics.MetricsGatewayMetrics;
import io.gpuaas.metrics.projection.QueueDepth;
import io.gpuaas.metrics.projection.ReclaimState;
import io.gpuaas.metrics.remotewrite.RemoteWriteReceiver;
import io.micronaut.context.BeanProvider;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Requires;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.util.Optional;

/**
 * The {@link MetricsGateway} in the container. It is the service's composition root (a service-kit
 * {@code ServiceComponents}): service-kit's {@code ServiceLifecycle} starts its components once the context is up and
 * stops them in reverse on shutdown, then the context closes it (the sample producer). The HTTP controllers read the
 * state it built through the beans below; nothing else of the gateway is a bean.
 */
@Factory
public class MetricsGatewayService {

    /**
     * @param kubernetes the kit's client, built only if the gateway asks for it ({@code kubernetes.enabled})
     * @param hook       only the fault ITs register one; production has none
     */
    @Singleton
    @Bean(preDestroy = "close")
    MetricsGateway gateway(
            ScrapeSettings scrape,
            KubernetesSettings kubernetesSettings,
            UsageSettings usage,
            LedgerSettings ledger,
            ProjectionSettings projections,
            LeaseSettings election,
            RemoteWriteSettings remoteWrite,
            UnderuseSettings underuse,
            KafkaClients kafka,
            BeanProvider<KubernetesClient> kubernetes,
            PoolCatalog pools,
            PrometheusRegistry registry,
            Optional<ProjectionHook> hook) {
        return new MetricsGateway(
                new MetricsGateway.Settings(
                        scrape, kubernetesSettings, usage, ledger, projections, election, remoteWrite, underuse),
                kafka,
                kubernetes::get,
                pools,
                registry,
                new MetricsGateway.Options(Clock.systemUTC(), hook.orElse(null)));
    }

    // What the HTTP edge reads.

    @Singleton
    QueueDepth queueDepth(MetricsGateway gateway) {
        return gateway.queues();
    }

    @Singleton
    ReclaimState reclaimState(MetricsGateway gateway) {
        return gateway.reclaims();
    }

    @Singleton
    LedgerSnapshots ledgerSnapshots(MetricsGateway gateway) {
        return gateway.ledger();
    }

    @Singleton
    MetricsGatewayMetrics metricsGatewayMetrics(MetricsGateway gateway) {
        return gateway.metrics();
    }

    @Singleton
    LedgerMetrics ledgerMetrics(MetricsGateway gateway) {
        return gateway.ledgerMetrics();
    }

    /** The pool catalog's prices, for the usage API's cost columns and the fair-share report. */
    @Singleton
    Costs costs(PoolCatalog pools) {
        return new Costs(pools);
    }

    @Singleton
    @Requires(property = "gpuaas.metrics-gateway.remote-write.enabled", notEquals = "false")
    RemoteWriteReceiver remoteWriteReceiver(MetricsGateway gateway) {
        return gateway.remoteWrite().orElseThrow();
    }
}
