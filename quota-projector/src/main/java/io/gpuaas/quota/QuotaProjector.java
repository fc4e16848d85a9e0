package io.gpuaas.quota;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.EventReader;
import io.gpuaas.events.Topics;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.quota.config.LeaderElectionSettings;
import io.gpuaas.quota.config.QuotaSettings;
import io.gpuaas.quota.k8s.ClusterCache;
import io.gpuaas.quota.k8s.ClusterQueueWriter;
import io.gpuaas.quota.k8s.Kind;
import io.gpuaas.quota.k8s.KueueManifests;
import io.gpuaas.quota.k8s.Leadership;
import io.gpuaas.quota.k8s.ManifestSettings;
import io.gpuaas.quota.kafka.BookingTable;
import io.gpuaas.quota.metrics.QuotaProjectorMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The whole projector without the web container: caches and the bookings table run on every replica; the writer,
 * the Workload stream and the queue state run on the Lease holder only ({@link LeaderDuties}). Tests and the
 * benchmark build it directly; {@link QuotaProjectorService} runs it inside Micronaut.
 */
public final class QuotaProjector implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(QuotaProjector.class);
    private static final Duration SYNC_TIMEOUT = Duration.ofSeconds(60);

    private final KubernetesClient client;
    private final KafkaClients kafka;
    private final QuotaSettings settings;
    private final PoolCatalog catalog;
    private final Clock clock;
    private final QuotaProjectorMetrics metrics;
    private final DeadLetterPublisher deadLetters;
    private final ClusterCache cache;
    private final BookingTable bookings;
    private final Leadership leadership;
    private volatile LeaderDuties duties;
    private volatile boolean started;
    private volatile boolean closing;

    public QuotaProjector(KubernetesClient client, KafkaClients kafka, QuotaSettings settings,
                          LeaderElectionSettings election, PoolCatalog catalog, PrometheusRegistry registry, Clock clock) {
        this.client = client;
        this.kafka = kafka;
        this.settings = settings;
        this.catalog = catalog;
        this.clock = clock;
        this.metrics = new QuotaProjectorMetrics(registry);
        this.deadLetters = kafka.deadLetterPublisher("quota-projector", registry);
        this.cache = new ClusterCache(client, settings.resync());
        this.bookings = new BookingTable(consumer(), kafka.topic(Topics.BOOKINGS), EventReader.of(Topics.BOOKINGS, deadLetters),
                this::bookingsChanged, clock, metrics);
        this.leadership = new Leadership(client, election, identity());
    }

    /** Syncs the caches, reads the bookings to their end, then campaigns for the Lease. Blocks until then. */
    public void start() throws InterruptedException {
        boolean profiles = settings.hardwareProfiles() && hardwareProfileCrdInstalled();
        cache.start(profiles, SYNC_TIMEOUT);
        bookings.start();
        if (!bookings.awaitCaughtUp(SYNC_TIMEOUT)) {
            throw new IllegalStateException("bookings topic not read to its end within " + SYNC_TIMEOUT);
        }
        KueueManifests manifests = new KueueManifests(new ManifestSettings(settings.cohortName(),
                settings.localQueueName(), settings.allowBorrowing(), profiles));
        leadership.start(() -> lead(manifests), () -> {
            if (!closing) {
                LOG.warn("lost the Lease: this replica stops writing until it wins the Lease again");
            }
            stepDown();
        });
        started = true;
    }

    private void lead(KueueManifests manifests) {
        LOG.info("leading: writing Kueue quota and publishing Workload events");
        ClusterQueueWriter writer = new ClusterQueueWriter(client, cache::get, metrics);
        LeaderDuties next = new LeaderDuties(cache, kafka, deadLetters, writer, manifests, bookings, catalog, settings,
                clock, metrics);
        next.start();
        duties = next;
        metrics.leader(true);
    }

    private void stepDown() {
        metrics.leader(false);
        LeaderDuties current = duties;
        duties = null;
        if (current != null) {
            current.close();
        }
    }

    private void bookingsChanged() {
        LeaderDuties current = duties;
        if (current != null) {
            current.bookingsChanged();
        }
    }

    /** Whether the CRD exists; creating HardwareProfiles on a cluster without OpenShift AI would only fail. */
    private boolean hardwareProfileCrdInstalled() {
        try {
            boolean installed = client.apiextensions().v1().customResourceDefinitions()
                    .withName(Kind.HARDWARE_PROFILE.crdName()).get() != null;
            LOG.info("HardwareProfile CRD {}", installed ? "installed: profiles are rendered" : "absent: no profiles");
            return installed;
        } catch (KubernetesClientException e) {
            LOG.info("cannot read CRDs ({}); HardwareProfiles disabled", e.getCode());
            return false;
        }
    }

    public boolean ready() {
        return started && bookings.isCaughtUp() && cache.watching();
    }

    public boolean leading() {
        return duties != null;
    }

    public ClusterCache cache() {
        return cache;
    }

    private KafkaConsumer<byte[], byte[]> consumer() {
        return new KafkaConsumer<>(kafka.consumerConfig(null), new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    private static String identity() {
        String host = System.getenv().getOrDefault("HOSTNAME", "quota-projector");
        return host + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @Override
    public void close() {
        closing = true;
        leadership.close();
        stepDown();
        bookings.close();
        cache.close();
    }
}
