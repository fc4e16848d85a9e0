package io.gpuaas.metrics;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.events.Topics;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.kit.k8s.LeaderDuty;
import io.gpuaas.kit.k8s.LeaderSchedule;
import io.gpuaas.kit.k8s.LeaseLeadership;
import io.gpuaas.kit.k8s.LeaseSettings;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.kit.runtime.ServiceComponent;
import io.gpuaas.kit.runtime.ServiceComponents;
import io.gpuaas.kit.runtime.TopicReplica;
import io.gpuaas.metrics.config.KubernetesSettings;
import io.gpuaas.metrics.config.LedgerSettings;
import io.gpuaas.metrics.config.ProjectionSettings;
import io.gpuaas.metrics.config.RemoteWriteSettings;
import io.gpuaas.metrics.config.ScrapeSettings;
import io.gpuaas.metrics.config.UnderuseSettings;
import io.gpuaas.metrics.config.UsageSettings;
import io.gpuaas.metrics.cost.Costs;
import io.gpuaas.metrics.k8s.DcgmExporterDiscovery;
import io.gpuaas.metrics.k8s.TenantNamespaceWatcher;
import io.gpuaas.metrics.kafka.GpuScrapePublisher;
import io.gpuaas.metrics.kafka.LedgerFeed;
import io.gpuaas.metrics.kafka.LedgerPublisher;
import io.gpuaas.metrics.kafka.ProjectionFeeds;
import io.gpuaas.metrics.kafka.ProjectionHook;
import io.gpuaas.metrics.kafka.RollupPublisher;
import io.gpuaas.metrics.kafka.UnderusePublisher;
import io.gpuaas.metrics.ledger.LedgerInputs;
import io.gpuaas.metrics.ledger.LedgerSnapshots;
import io.gpuaas.metrics.ledger.PublishedDays;
import io.gpuaas.metrics.ledger.Sealing;
import io.gpuaas.metrics.ledger.UnderuseSent;
import io.gpuaas.metrics.metrics.LedgerMetrics;
import io.gpuaas.metrics.metrics.MetricsGatewayMetrics;
import io.gpuaas.metrics.metrics.PublishCounters;
import io.gpuaas.metrics.projection.BookedUnits;
import io.gpuaas.metrics.projection.QueueDepth;
import io.gpuaas.metrics.projection.ReclaimState;
import io.gpuaas.metrics.projection.TenantDirectory;
import io.gpuaas.metrics.projection.TenantUsage;
import io.gpuaas.metrics.remotewrite.LabelSlots;
import io.gpuaas.metrics.remotewrite.RemoteWriteMetrics;
import io.gpuaas.metrics.remotewrite.RemoteWriteReceiver;
import io.gpuaas.metrics.scrape.Backoff;
import io.gpuaas.metrics.scrape.ScrapeHealth;
import io.gpuaas.metrics.scrape.ScrapeScheduler;
import io.gpuaas.metrics.scrape.ScrapeTarget;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The whole gateway, built in one place and read top to bottom: the projections and the ledger it computes (pure
 * state, read by /metrics, KEDA and the usage API), the topic replicas and Kubernetes watchers that feed them, the
 * one GpuScrape producer and the scrape scheduler and remote-write receiver that publish through it, and the Lease
 * whose holder runs the publishing duties. Service-kit's {@code ServiceLifecycle} runs {@link #components()} in
 * {@link StartOrder} and stops them in reverse; {@link #close()} then closes the sample producer. Which parts exist
 * is decided here from settings, as plain conditions: Kubernetes watchers only with {@code kubernetes.enabled}
 * (only then is a client asked for), exporter discovery only with {@code scrape.discovery} too, rollups only with
 * {@code usage.rollups}, daily ledger records only with {@code ledger.publish}, the remote-write receiver only with
 * {@code remote-write.enabled}.
 */
public final class MetricsGateway implements ServiceComponents, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(MetricsGateway.class);

    /** Every setting the gateway reads, one record per concern. */
    public record Settings(
            ScrapeSettings scrape,
            KubernetesSettings kubernetes,
            UsageSettings usage,
            LedgerSettings ledger,
            ProjectionSettings projections,
            LeaseSettings election,
            RemoteWriteSettings remoteWrite,
            UnderuseSettings underuse) {}

    /**
     * Knobs production leaves at {@link #defaults()}.
     *
     * @param hook called before a projection applies a record (the fault ITs' seam); null for none
     */
    public record Options(Clock clock, ProjectionHook hook) {
        public static Options defaults() {
            return new Options(Clock.systemUTC(), null);
        }
    }

    private final QueueDepth queues;
    private final ReclaimState reclaims;
    private final LedgerSnapshots ledger;
    private final MetricsGatewayMetrics metrics;
    private final LedgerMetrics ledgerMetrics;
    private final GpuScrapePublisher samples;
    private final RemoteWriteReceiver remoteWrite;
    private final LeaseLeadership leadership;
    private final List<ServiceComponent> components;

    /** @param kubernetes the service's client; asked for only with {@code kubernetes.enabled} */
    public MetricsGateway(
            Settings settings,
            KafkaClients kafka,
            Supplier<KubernetesClient> kubernetes,
            PoolCatalog pools,
            PrometheusRegistry registry,
            Options options) {
        UsageSettings usage = settings.usage();
        List<ServiceComponent> all = new ArrayList<>();

        // The pure state: projections of the topics, and the GPU-hours ledger.
        TenantDirectory tenants = new TenantDirectory(usage.namespaceTenants());
        this.queues = new QueueDepth(tenants);
        this.reclaims = new ReclaimState();
        BookedUnits bookings = new BookedUnits(pools);
        TenantUsage tenantUsage = new TenantUsage(tenants, usage.idleThreshold(), usage.staleAfter(), usage.maxGap());
        LedgerInputs ledgerInputs = new LedgerInputs(pools, usage.idleThreshold(), usage.maxGap());
        PublishedDays published = new PublishedDays();
        UnderuseSent underused = new UnderuseSent();
        this.ledger = ledgerSnapshots(ledgerInputs, published, settings.ledger(), usage);
        ScrapeHealth scrapeHealth = new ScrapeHealth();
        PublishCounters publishing = new PublishCounters();
        this.metrics = new MetricsGatewayMetrics(
                queues, tenantUsage, bookings, reclaims, scrapeHealth, publishing, options.clock());
        this.ledgerMetrics = new LedgerMetrics(ledger, new Costs(pools));

        // Topics in: three replicas of what the other services publish.
        ProjectionFeeds feeds = new ProjectionFeeds(
                clientId -> KafkaFactory.projectionConsumer(kafka, clientId),
                kafka.settings().topicPrefix(),
                kafka.deadLetterPublisher("metrics-gateway", registry),
                kafka.deadLetterPublisher(ProjectionFeeds.LEDGER_GROUP, registry),
                settings.projections(),
                options.hook());
        TopicReplica stateFeed = feeds.stateFeed(queues, bookings, reclaims);
        TopicReplica sampleFeed = feeds.sampleFeed(tenantUsage);
        // Its replay does not gate readiness: the usage API answers 503 until the first snapshot.
        LedgerFeed ledgerFeed = new LedgerFeed(
                feeds.ledgerFeed(ledgerInputs, published, underused),
                ledgerInputs,
                ledger,
                () -> KafkaFactory.inputsHorizon(kafka),
                settings.ledger().refresh(),
                registry);
        all.addAll(List.of(stateFeed, sampleFeed, ledgerFeed));

        // Kubernetes in: tenant labels of Namespaces, and where the dcgm-exporters run.
        boolean onKubernetes = settings.kubernetes().enabled();
        KubernetesClient client = onKubernetes ? kubernetes.get() : null;
        if (onKubernetes) {
            all.add(TenantNamespaceWatcher.cache(client, settings.kubernetes().tenantLabel(), tenants, registry));
        }

        // Samples out: one producer of gpu-samples, shared by the scrape loops and the remote-write endpoint.
        this.samples = KafkaFactory.scrapePublisher(kafka, publishing);
        ScrapeScheduler scheduler =
                scrapeScheduler(settings.scrape(), samples, scrapeHealth, options.clock(), registry);
        if (onKubernetes && settings.scrape().discovery()) {
            all.add(discovery(client, settings.scrape(), scheduler, registry));
        }
        this.remoteWrite =
                settings.remoteWrite().enabled() ? remoteWrite(settings.remoteWrite(), samples, registry) : null;

        // The Lease holder's duties, in the order it takes them up: rollups, daily ledger records, scrapes.
        List<LeaderDuty> duties = new ArrayList<>();
        if (usage.rollups()) {
            LeaderSchedule rollups = rollups(usage, tenantUsage, bookings, kafka, options.clock(), registry);
            duties.add(rollups);
            all.add(rollups);
        }
        if (settings.ledger().publish()) {
            LeaderSchedule records = ledgerRecords(ledger, settings.ledger(), kafka, registry);
            duties.add(records);
            all.add(records);
        }
        if (settings.underuse().enabled()) {
            LeaderSchedule notices = new UnderusePublisher(
                            ledger,
                            underused,
                            KafkaFactory.noticeProducer(kafka),
                            kafka.topic(Topics.NOTICES),
                            settings.underuse())
                    .schedule(registry);
            duties.add(notices);
            all.add(notices);
        }
        duties.add(scheduler);
        all.add(scheduler);
        // Campaigns once both projections have caught up (a new leader's first rollup reads the bookings); without
        // Kubernetes, or with the election off, this replica leads alone.
        boolean elect = onKubernetes && settings.election().enabled();
        this.leadership = new LeaseLeadership(
                elect ? client : null,
                "gateway-leadership",
                elect ? settings.election() : settings.election().withoutElection(),
                duties,
                () -> stateFeed.health().caughtUp() && sampleFeed.health().caughtUp(),
                StartOrder.LEADERSHIP);
        all.add(leadership);
        this.components = List.copyOf(all);

        LOG.info(
                "metrics-gateway: {} configured targets, discovery {}, rollups {}, ledger records {}, "
                        + "remote-write {}, leader election {}",
                settings.scrape().targets().size(),
                onKubernetes && settings.scrape().discovery()
                        ? settings.scrape().discoverySelector()
                        : "off",
                usage.rollups() ? "every " + usage.rollupWindow() : "off",
                settings.ledger().publish() ? "every " + settings.ledger().publishInterval() : "off",
                remoteWrite != null ? "on" : "off",
                elect ? settings.election() : "off");
    }

    /** Every component, for service-kit's lifecycle and health. */
    @Override
    public List<ServiceComponent> components() {
        return components;
    }

    /** Queue depth per ClusterQueue and LocalQueue, for KEDA. */
    public QueueDepth queues() {
        return queues;
    }

    /** Idleness per workload, for KEDA. */
    public ReclaimState reclaims() {
        return reclaims;
    }

    /** The GPU-hours ledger's latest snapshot, for the usage API. */
    public LedgerSnapshots ledger() {
        return ledger;
    }

    /** The gateway's own metric families, rendered by /metrics. */
    public MetricsGatewayMetrics metrics() {
        return metrics;
    }

    public LedgerMetrics ledgerMetrics() {
        return ledgerMetrics;
    }

    /** The remote-write receiver; empty with {@code remote-write.enabled: false}. */
    public Optional<RemoteWriteReceiver> remoteWrite() {
        return Optional.ofNullable(remoteWrite);
    }

    /** Whether this replica holds the gateway's Lease and runs its duties. */
    public boolean leading() {
        return leadership.leading();
    }

    /** Closes the sample producer; after the lifecycle stopped the components (the scheduler flushed it). */
    @Override
    public void close() {
        samples.close();
    }

    private static LedgerSnapshots ledgerSnapshots(
            LedgerInputs inputs, PublishedDays published, LedgerSettings settings, UsageSettings usage) {
        if (settings.cutLag().compareTo(usage.maxGap()) < 0) {
            // A gap is charged when the next reading comes, up to max-gap later: a shorter lag publishes before it.
            throw new IllegalArgumentException("gpuaas.metrics-gateway.ledger.cut-lag (" + settings.cutLag()
                    + ") must be at least gpuaas.metrics-gateway.usage.max-gap (" + usage.maxGap() + ")");
        }
        return new LedgerSnapshots(inputs, published, new Sealing(settings.sealAfter(), settings.cutLag()));
    }

    private static ScrapeScheduler scrapeScheduler(
            ScrapeSettings scrape,
            GpuScrapePublisher samples,
            ScrapeHealth health,
            Clock clock,
            PrometheusRegistry registry) {
        ScrapeScheduler scheduler = new ScrapeScheduler(
                new Backoff(scrape.interval(), scrape.maxBackoff()),
                scrape.timeout(),
                samples,
                health,
                clock,
                registry);
        scheduler.setTargets(
                "config",
                scrape.targets().stream().map(ScrapeTarget::configured).collect(Collectors.toSet()));
        return scheduler;
    }

    private static ServiceComponent discovery(
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

    private static RemoteWriteReceiver remoteWrite(
            RemoteWriteSettings settings, GpuScrapePublisher samples, PrometheusRegistry registry) {
        return new RemoteWriteReceiver(
                new LabelSlots(settings.nodeLabels(), settings.targetPodLabels()),
                settings.maxBodyBytes(),
                settings.publishTimeout(),
                samples::publishAll,
                new RemoteWriteMetrics(registry));
    }

    private static LeaderSchedule rollups(
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

    /** Daily ledger records, never before the ledger's first snapshot. */
    private static LeaderSchedule ledgerRecords(
            LedgerSnapshots ledger, LedgerSettings settings, KafkaClients kafka, PrometheusRegistry registry) {
        return new LedgerPublisher(
                        ledger,
                        KafkaFactory.ledgerProducer(kafka),
                        kafka.topic(Topics.USAGE_LEDGER),
                        settings.publishInterval())
                .schedule(registry);
    }
}
