package io.gpuaas.quota.it;

import static io.gpuaas.events.KafkaPrincipal.QUOTA_PROJECTOR;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.events.KafkaAccess;
import io.gpuaas.events.Labels;
import io.gpuaas.events.TopicAdmin;
import io.gpuaas.events.Topics;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.kit.config.KafkaSettings;
import io.gpuaas.kit.k8s.LeaseSettings;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.quota.QuotaProjector;
import io.gpuaas.quota.config.MigLayoutSettings;
import io.gpuaas.quota.config.NodeResourceSettings;
import io.gpuaas.quota.config.QuotaSettings;
import io.gpuaas.quota.k8s.Kind;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** One isolated projector world for an IT: its own topic prefix on the shared broker, the given API server. */
final class ProjectorFixture implements AutoCloseable {

    final KubernetesClient client;
    final KafkaBroker broker;
    final String prefix;
    final KafkaClients kafka;
    private final KafkaProducer<String, Booking> bookings;
    private final List<QuotaProjector> started = new ArrayList<>();

    ProjectorFixture(KubernetesClient client, KafkaBroker broker) {
        this.client = client;
        this.broker = broker;
        this.prefix = broker.uniquePrefix();
        try (Admin admin = broker.admin()) {
            TopicAdmin.createAll(admin, prefix);
        }
        // Projector replicas run as quota-projector with exactly its ACLs; the test's own clients are the super user's.
        this.kafka = new KafkaClients(new KafkaSettings(
                broker.bootstrapServers(),
                prefix,
                broker.serviceCredentials(QUOTA_PROJECTOR.userName(), KafkaAccess.acls(QUOTA_PROJECTOR, prefix))));
        this.bookings = new KafkaProducer<>(
                broker.clientProperties(),
                new StringSerializer(),
                Topics.BOOKINGS.valueSerde().serializer());
    }

    QuotaProjector start(QuotaSettings settings, LeaseSettings election, PrometheusRegistry registry)
            throws InterruptedException {
        return start(client, settings, election, registry);
    }

    /**
     * A replica talking to the API server through its own {@code apiClient} (closed by the caller), returned once it
     * is ready: caches synced and the topics it replicates read to their end.
     */
    QuotaProjector start(
            KubernetesClient apiClient, QuotaSettings settings, LeaseSettings election, PrometheusRegistry registry)
            throws InterruptedException {
        QuotaProjector projector = new QuotaProjector(
                apiClient, kafka, settings, election, PoolCatalog.load(Optional.empty()), registry, Clock.systemUTC());
        projector.start();
        started.add(projector);
        await().atMost(Duration.ofSeconds(60)).until(projector::ready);
        return projector;
    }

    /** A replica with its own pool catalog and MIG layout settings (flexible pools), returned once ready. */
    QuotaProjector start(
            KubernetesClient apiClient, PoolCatalog catalog, MigLayoutSettings mig, PrometheusRegistry registry)
            throws InterruptedException {
        QuotaProjector projector = new QuotaProjector(
                apiClient,
                kafka,
                QuotaSettings.defaults(),
                NodeResourceSettings.defaults(),
                mig,
                LeaseSettings.elect("gpuaas-quota-projector"),
                catalog,
                registry,
                QuotaProjector.Options.defaults());
        projector.start();
        started.add(projector);
        await().atMost(Duration.ofSeconds(60)).until(projector::ready);
        return projector;
    }

    /** Publishes {@code booking} on the compacted bookings topic as booking-service does. */
    void publish(Booking booking) throws Exception {
        bookings.send(new ProducerRecord<>(kafka.topic(Topics.BOOKINGS), booking.id(), booking))
                .get(10, TimeUnit.SECONDS);
    }

    void tenantNamespace(String namespace, String tenant) {
        client.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(namespace)
                        .addToLabels(Labels.TENANT, tenant)
                        .endMetadata()
                        .build())
                .createOr(n -> n.update());
    }

    Booking book(String id, String tenant, String pool, int quantity, Instant start, Instant end) throws Exception {
        String resource =
                pool.equals("h200") ? "nvidia.com/gpu" : "nvidia.com/mig-" + pool.substring("h200-mig-".length());
        Booking booking = new Booking(
                id,
                tenant,
                tenant,
                pool,
                pool,
                resource,
                quantity,
                start,
                end,
                null,
                BookingState.CONFIRMED,
                "alice",
                Instant.now(),
                Instant.now(),
                1);
        bookings.send(new ProducerRecord<>(kafka.topic(Topics.BOOKINGS), id, booking))
                .get(10, TimeUnit.SECONDS);
        return booking;
    }

    /** Publishes {@code booking} as cancelled, as booking-service does when its owner cancels it. */
    void cancel(Booking booking) throws Exception {
        Booking cancelled = new Booking(
                booking.id(),
                booking.tenant(),
                booking.namespace(),
                booking.pool(),
                booking.flavor(),
                booking.resource(),
                booking.quantity(),
                booking.start(),
                booking.end(),
                booking.purpose(),
                BookingState.CANCELLED,
                booking.createdBy(),
                booking.createdAt(),
                Instant.now(),
                booking.version() + 1);
        bookings.send(new ProducerRecord<>(kafka.topic(Topics.BOOKINGS), booking.id(), cancelled))
                .get(10, TimeUnit.SECONDS);
    }

    Optional<HasMetadata> get(Kind kind, String namespace, String name) {
        var op = client.resources(kind.type());
        return Optional.ofNullable(
                namespace == null
                        ? op.withName(name).get()
                        : op.inNamespace(namespace).withName(name).get());
    }

    /** Every record on {@code topic} (full name) so far, as key and raw value. */
    List<ConsumerRecord<String, String>> records(String topic) {
        Map<String, Object> config = broker.clientProperties();
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        try (var consumer = new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            List<ConsumerRecord<String, String>> out = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (end.entrySet().stream().anyMatch(e -> consumer.position(e.getKey()) < e.getValue())
                    && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(100)).forEach(out::add);
            }
            return out;
        }
    }

    void stop(QuotaProjector projector) {
        projector.close();
        started.remove(projector);
    }

    @Override
    public void close() {
        new ArrayList<>(started).forEach(this::stop);
        bookings.close();
        kafka.close();
    }
}
