package io.gpuaas.metrics;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.events.Topics;
import io.gpuaas.kit.k8s.InformerCache;
import io.gpuaas.kit.k8s.LeaderDuty;
import io.gpuaas.kit.k8s.LeaderSchedule;
import io.gpuaas.kit.k8s.LeaseLeadership;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.kit.runtime.TopicReplica;
import io.gpuaas.metrics.config.KubernetesSettings;
import io.gpuaas.metrics.config.LeaderElectionSettings;
import io.gpuaas.metrics.config.LedgerSettings;
import io.gpuaas.metrics.config.ProjectionSettings;
import io.gpuaas.metrics.config.ScrapeSettings;
import io.gpuaas.metrics.config.UsageSettings;
import io.gpuaas.metrics.k8s.DcgmExporterDiscovery;
import io.gpuaas.metrics.k8s.TenantNamespaceWatcher;
import io.gpuaas.metrics.kafka.GpuScrapePublisher;
import io.gpuaas.metrics.kafka.LedgerFeed;
import io.gpuaas.metrics.kafka.LedgerPublisher;
import io.gpuaas.metrics.kafka.ProjectionFeeds;
import io.gpuaas.metrics.kafka.ProjectionHook;
import io.gpuaas.metrics.kafka.RollupPublisher;
import io.gpuaas.metrics.ledger.LedgerInputs;
import io.gpuaas.metrics.ledger.LedgerSnapshots;
import io.gpuaas.metrics.ledger.PublishedDays;
import io.gpuaas.metrics.metrics.PublishCounters;
import io.gpuaas.metrics.projection.BookedUnits;
import io.gpuaas.metrics.projection.QueueDepth;
import io.gpuaas.metrics.projection.ReclaimState;
import io.gpuaas.metrics.projection.TenantDirectory;
import io.gpuaas.metrics.projection.TenantUsage;
import io.gpuaas.metrics.scrape.Backoff;
import io.gpuaas.metrics.scrape.ScrapeHealth;
import io.gpuaas.metrics.scrape.ScrapeScheduler;
import io.gpuaas.metrics.scrape.ScrapeTarget;
import io.micronaut.context.BeanProvider;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Requires;
import io.micronaut.core.annotation.Nullable;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running parts of metrics-gateway, as service-kit {@code ServiceComponent}s: the kit's {@code ServiceLifecycle}
 * starts them in {@link StartOrder} and stops them in reverse, and {@code /health/readiness} is UP only while every
 * one of them runs caught up. The Kubernetes watchers exist only with {@code kubernetes.enabled} (so only then is
 * the kit's client built), exporter discovery only with {@code scrape.discovery} too, rollups only with
 * {@code usage.rollups}. Scraping and rollups are the duties of the Lease holder ({@code gateway-leadership}); every
 * replica runs the rest.
 */
@Factory
public class GatewayComponents {

    private static final Logger LOG = LoggerFactory.getLogger(GatewayComponents.class);
    private static final String KUBERNETES = "gpuaas.metrics-gateway.kubernetes.enabled";
    private static final String TENANT_ROLLUPS = "tenant-rollups";
    private static final String USAGE_LEDGER = "usage-ledger";

    @Singleton
    ProjectionFeeds projectionFeeds(
            KafkaClients kafka,
            PrometheusRegistry registry,
            ProjectionSettings settings,
            @Nullable ProjectionHook hook) {
        return new ProjectionFeeds(
                clientId -> KafkaFactory.projectionConsumer(kafka, clientId),
                kafka.settings().topicPrefix(),
                kafka.deadLetterPublisher("metrics-gateway", registry),
                kafka.deadLetterPublisher(ProjectionFeeds.LEDGER_GROUP, registry),
                settings,
                hook);
    }

    @Singleton
    @Named(ProjectionFeeds.STATE_FEED)
    TopicReplica stateFeed(ProjectionFeeds feeds, QueueDepth queues, BookedUnits bookings, ReclaimState reclaims) {
        return feeds.stateFeed(queues, bookings, reclaims);
    }

    @Singleton
    @Named(ProjectionFeeds.SAMPLE_FEED)
    TopicReplica sampleFeed(ProjectionFeeds feeds, TenantUsage usage) {
        return feeds.sampleFeed(usage);
    }

    /** The ledger's replica and snapshot timer; its replay does not gate readiness (the usage API answers 503). */
    @Singleton
    LedgerFeed ledgerFeed(
            ProjectionFeeds feeds,
            LedgerInputs ledger,
            PublishedDays published,
            LedgerSnapshots snapshots,
            KafkaClients kafka,
            LedgerSettings settings,
            PrometheusRegistry registry) {
        return new LedgerFeed(
                feeds.ledgerFeed(ledger, published),
                ledger,
                snapshots,
                () -> KafkaFactory.inputsHorizon(kafka),
                settings.refresh(),
                registry);
    }

    /** Daily ledger records, from the Lease holder only, never before the ledger's first snapshot. */
    @Singleton
    @Named(USAGE_LEDGER)
    @Requires(property = "gpuaas.metrics-gateway.ledger.publish", notEquals = "false")
    LeaderSchedule ledgerPublisher(
            LedgerSettings settings, LedgerSnapshots snapshots, KafkaClients kafka, PrometheusRegistry registry) {
        return new LedgerPublisher(
                        snapshots,
                        KafkaFactory.ledgerProducer(kafka),
                        kafka.topic(Topics.USAGE_LEDGER),
                        settings.publishInterval())
                .schedule(registry);
    }

    /**
     * The one writer of {@code gpuaas.gpu-samples}: the scrape loops and the remote-write endpoint publish through it.
     * Closed with the context, after the scheduler (which depends on it) has stopped and flushed it.
     */
    @Singleton
    @Bean(preDestroy = "close")
    GpuScrapePublisher scrapePublisher(KafkaClients kafka, PublishCounters counters) {
        return KafkaFactory.scrapePublisher(kafka, counters);
    }

    @Singleton
    ScrapeScheduler scrapeScheduler(
            ScrapeSettings scrape,
            KubernetesSettings kubernetes,
            UsageSettings usage,
            GpuScrapePublisher publisher,
            ScrapeHealth health,
            Clock clock,
            PrometheusRegistry registry) {
        ScrapeScheduler scheduler = new ScrapeScheduler(
                new Backoff(scrape.interval(), scrape.maxBackoff()),
                scrape.timeout(),
                publisher,
                health,
                clock,
                registry);
        scheduler.setTargets(
                "config",
                scrape.targets().stream().map(ScrapeTarget::configured).collect(Collectors.toSet()));
        LOG.info(
                "metrics-gateway: {} configured targets, discovery {}, rollups every {}",
                scrape.targets().size(),
                kubernetes.enabled() && scrape.discovery() ? scrape.discoverySelector() : "off",
                usage.rollups() ? usage.rollupWindow() : "off");
        return scheduler;
    }

    @Singleton
    @Named(TENANT_ROLLUPS)
    @Requires(property = "gpuaas.metrics-gateway.usage.rollups", notEquals = "false")
    LeaderSchedule rollups(
            UsageSettings usage,
            TenantUsage tenantUsage,
            BookedUnits bookings,
            KafkaClients kafka,
            Clock clock,
            PrometheusRegistry registry) {
        return new RollupPublisher(
                        tenantUsage,
                        bookings,
                        KafkaFactory.rollupProducer(kafka),
                        kafka.topic(Topics.TENANT_UTILIZATION),
                        usage.rollupWindow(),
                        clock)
                .schedule(registry);
    }

    /**
     * Campaigns once both projections have caught up (a new leader's first rollup reads the bookings). Without
     * Kubernetes, or with the election off, this replica leads alone and no client is built.
     */
    @Singleton
    LeaseLeadership gatewayLeadership(
            LeaderElectionSettings election,
            KubernetesSettings kubernetes,
            BeanProvider<KubernetesClient> client,
            ScrapeScheduler scheduler,
            @Nullable @Named(TENANT_ROLLUPS) LeaderSchedule rollups,
            @Nullable @Named(USAGE_LEDGER) LeaderSchedule ledger,
            @Named(ProjectionFeeds.STATE_FEED) TopicReplica stateFeed,
            @Named(ProjectionFeeds.SAMPLE_FEED) TopicReplica sampleFeed) {
        boolean elect = kubernetes.enabled() && election.enabled();
        List<LeaderDuty> duties = new ArrayList<>();
        if (rollups != null) {
            duties.add(rollups);
        }
        if (ledger != null) {
            duties.add(ledger);
        }
        duties.add(scheduler);
        return new LeaseLeadership(
                elect ? client.get() : null,
                "gateway-leadership",
                elect ? election : election.withoutElection(),
                duties,
                () -> stateFeed.health().caughtUp() && sampleFeed.health().caughtUp(),
                StartOrder.LEADERSHIP);
    }

    @Singleton
    @Named("tenant-namespaces")
    @Requires(property = KUBERNETES, notEquals = "false")
    InformerCache<Namespace> tenantNamespaces(
            KubernetesClient client,
            KubernetesSettings kubernetes,
            TenantDirectory tenants,
            PrometheusRegistry registry) {
        return TenantNamespaceWatcher.cache(client, kubernetes.tenantLabel(), tenants, registry);
    }

    @Singleton
    @Named("exporter-discovery")
    @Requires(property = KUBERNETES, notEquals = "false")
    @Requires(property = "gpuaas.metrics-gateway.scrape.discovery", notEquals = "false")
    InformerCache<Pod> exporterDiscovery(
            KubernetesClient client, ScrapeSettings scrape, ScrapeScheduler scheduler, PrometheusRegistry registry) {
        return DcgmExporterDiscovery.cache(
                client,
                scrape.discoveryNamespace(),
                scrape.discoverySelector(),
                scrape.discoveryPort(),
                scrape.discoveryPath(),
                scheduler,
                registry);
    }
}
