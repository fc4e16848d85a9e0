package io.gpuaas.metrics;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.Topics;
import io.gpuaas.events.gpu.GpuSample;
import io.gpuaas.events.quota.QueueState;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.metrics.config.KubernetesSettings;
import io.gpuaas.metrics.config.ScrapeSettings;
import io.gpuaas.metrics.config.UsageSettings;
import io.gpuaas.metrics.k8s.DcgmExporterDiscovery;
import io.gpuaas.metrics.k8s.TenantNamespaceWatcher;
import io.gpuaas.metrics.kafka.GpuSamplePublisher;
import io.gpuaas.metrics.kafka.ProjectionConsumer;
import io.gpuaas.metrics.kafka.RollupPublisher;
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
import io.micronaut.context.event.ApplicationEventListener;
import io.micronaut.runtime.server.event.ServerStartupEvent;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.util.List;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running parts of metrics-gateway and their order: on startup the projections start consuming, then
 * scraping and discovery begin; on shutdown scraping stops first, buffered samples and the partial rollup are
 * flushed, then consumers and watchers close.
 */
@Singleton
public class Gateway implements ApplicationEventListener<ServerStartupEvent> {

    private static final Logger LOG = LoggerFactory.getLogger(Gateway.class);

    private final ScrapeSettings scrape;
    private final UsageSettings usage;
    private final KubernetesSettings kubernetes;
    private final ScrapeScheduler scheduler;
    private final GpuSamplePublisher publisher;
    private final ProjectionConsumer consumer;
    private final RollupPublisher rollups;
    private final TenantDirectory tenants;
    private final BeanProvider<KubernetesClient> clients;
    private DcgmExporterDiscovery discovery;
    private TenantNamespaceWatcher namespaces;
    private Thread consumerThread;

    public Gateway(ScrapeSettings scrape, UsageSettings usage, KubernetesSettings kubernetes, KafkaClients kafka,
                   PrometheusRegistry registry, PublishCounters counters,
                   ScrapeHealth health, QueueDepth queues, TenantUsage tenantUsage, BookedUnits bookings,
                   ReclaimState reclaims, TenantDirectory tenants, BeanProvider<KubernetesClient> clients,
                   Clock clock) {
        this.scrape = scrape;
        this.usage = usage;
        this.kubernetes = kubernetes;
        this.tenants = tenants;
        this.clients = clients;
        this.publisher = KafkaFactory.samplePublisher(kafka, counters);
        this.scheduler = new ScrapeScheduler(new Backoff(scrape.interval(), scrape.maxBackoff()), scrape.timeout(),
                publisher, health, clock);
        DeadLetterPublisher deadLetters = kafka.deadLetterPublisher("metrics-gateway", registry);
        this.consumer = new ProjectionConsumer(KafkaFactory.projectionConsumer(kafka), kafka.settings().topicPrefix(),
                deadLetters, List.of(
                        new ProjectionConsumer.Feed<>(Topics.QUOTA_STATE, true,
                                (key, state) -> queues.apply(key, state instanceof QueueState q ? q : null)),
                        new ProjectionConsumer.Feed<>(Topics.BOOKINGS, true, bookings::apply),
                        // Not compacted: a null there is dead-lettered and never reaches the handler.
                        new ProjectionConsumer.Feed<>(Topics.RECLAIM_EVENTS, true, (key, event) -> reclaims.apply(event)),
                        new ProjectionConsumer.Feed<>(Topics.GPU_SAMPLES, false, (key, sample) -> {
                            if (sample instanceof GpuSample s) {
                                tenantUsage.apply(s);
                            }
                        })));
        this.rollups = usage.rollups() ? new RollupPublisher(tenantUsage, bookings, KafkaFactory.rollupProducer(kafka),
                kafka.topic(Topics.TENANT_UTILIZATION), usage.rollupWindow(), clock) : null;
    }

    @Override
    public void onApplicationEvent(ServerStartupEvent event) {
        consumerThread = Thread.ofPlatform().name("projections").daemon().start(consumer);
        if (rollups != null) {
            rollups.start();
        }
        scheduler.setTargets("config", scrape.targets().stream().map(ScrapeTarget::configured)
                .collect(Collectors.toSet()));
        if (kubernetes.enabled()) {
            startKubernetes();
        }
        LOG.info("metrics-gateway started: {} configured targets, discovery {}, rollups every {}",
                scrape.targets().size(), kubernetes.enabled() && scrape.discovery() ? scrape.discoverySelector() : "off",
                rollups != null ? usage.rollupWindow() : "off");
    }

    private void startKubernetes() {
        // The kit's client (io.gpuaas.kit.k8s), fetched only now: with Kubernetes disabled none is built.
        KubernetesClient client = clients.get();
        namespaces = new TenantNamespaceWatcher(client, kubernetes.tenantLabel(), tenants);
        namespaces.start();
        if (scrape.discovery()) {
            discovery = new DcgmExporterDiscovery(client, scrape.discoveryNamespace(), scrape.discoverySelector(),
                    scrape.discoveryPort(), scrape.discoveryPath(), scheduler);
            discovery.start();
        }
    }

    /** Whether the Kubernetes watches are live; true when Kubernetes is not used. */
    public boolean kubernetesWatching() {
        if (!kubernetes.enabled()) {
            return true;
        }
        return namespaces != null && namespaces.watching() && (discovery == null || discovery.watching());
    }

    public boolean projectionsRunning() {
        return consumer.caughtUp();
    }

    @PreDestroy
    void stop() throws InterruptedException {
        scheduler.close();
        publisher.close();
        if (rollups != null) {
            rollups.close();
        }
        consumer.close();
        if (consumerThread != null) {
            consumerThread.join(5_000);
        }
        if (discovery != null) {
            discovery.close();
        }
        if (namespaces != null) {
            namespaces.close();
        }
        LOG.info("metrics-gateway stopped");
    }
}
