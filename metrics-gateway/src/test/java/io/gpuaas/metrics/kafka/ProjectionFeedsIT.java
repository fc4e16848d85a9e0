package io.gpuaas.metrics.kafka;

import static io.gpuaas.events.KafkaPrincipal.METRICS_GATEWAY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.KafkaAccess;
import io.gpuaas.events.TopicAdmin;
import io.gpuaas.events.TopicSpec;
import io.gpuaas.events.Topics;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.events.quota.QueueState;
import io.gpuaas.kit.config.KafkaSettings;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.kit.runtime.ComponentHealth.State;
import io.gpuaas.kit.runtime.TopicReplica;
import io.gpuaas.metrics.KafkaFactory;
import io.gpuaas.metrics.QueueStates;
import io.gpuaas.metrics.TestScrapes;
import io.gpuaas.metrics.config.ProjectionSettings;
import io.gpuaas.metrics.projection.BookedUnits;
import io.gpuaas.metrics.projection.QueueDepth;
import io.gpuaas.metrics.projection.ReclaimState;
import io.gpuaas.metrics.projection.TenantDirectory;
import io.gpuaas.metrics.projection.TenantUsage;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The gateway's projection replicas on a real broker, as the gateway's Kafka user: late topics, failing dead letters,
 * failing polls, a projection that dies, and where the sample feed starts. Judged by what the projections hold (what
 * /metrics and KEDA then show) and by the replicas' health (what readiness and liveness then say).
 */
@ExtendWith(KafkaBrokerExtension.class)
class ProjectionFeedsIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final ProjectionSettings FAST = new ProjectionSettings(
            Duration.ofMillis(200), Duration.ofSeconds(2), 5, Duration.ofSeconds(1), Duration.ofSeconds(5));

    private KafkaBroker broker;
    private KafkaClients clients;
    private String prefix;
    private final TenantDirectory tenants = new TenantDirectory(Map.of("team-a", "team-a"));
    private final QueueDepth queues = new QueueDepth(tenants);
    private final BookedUnits bookings = new BookedUnits();
    private final TenantUsage usage = new TenantUsage(tenants, 0.05, Duration.ofSeconds(30), Duration.ofSeconds(30));
    private final FlakyProducer deadLetterProducer = new FlakyProducer();
    private TopicReplica stateFeed;
    private TopicReplica sampleFeed;

    @BeforeEach
    void topics(KafkaBroker broker) {
        this.broker = broker;
        prefix = broker.uniquePrefix();
        clients = gateway(broker, prefix);
        try (Admin admin = broker.admin()) {
            TopicAdmin.createAll(admin, prefix);
        }
    }

    @AfterEach
    void stop() {
        for (TopicReplica feed : new TopicReplica[] {stateFeed, sampleFeed}) {
            if (feed != null) {
                feed.stop(Duration.ofSeconds(5));
            }
        }
        clients.close();
    }

    /** How the first metadata lookup of gpuaas.bookings went wrong on a loaded machine (decision 0008). */
    enum LateLookup {
        TOPIC_NOT_FOUND_YET,
        TIMED_OUT
    }

    @ParameterizedTest
    @EnumSource(LateLookup.class)
    void shouldReadEveryExistingBookingWhenTheBookingsTopicIsFoundAfterTheOtherTopics(LateLookup late) {
        List.of("b0", "b1", "b2", "b3", "b4", "b5").forEach(id -> send(Topics.BOOKINGS, id, booking(id)));
        send(Topics.QUOTA_STATE, "lq/team-a/gpuaas", queue("gpuaas"));
        String bookingsTopic = Topics.BOOKINGS.name(prefix);
        AtomicInteger lookups = new AtomicInteger();
        start(
                clientId -> Intercepted.consumer(KafkaFactory.projectionConsumer(clients, clientId), (method, args) -> {
                    if (method.getName().equals("partitionsFor")
                            && bookingsTopic.equals(args[0])
                            && lookups.getAndIncrement() == 0) {
                        if (late == LateLookup.TIMED_OUT) {
                            throw new TimeoutException("metadata of " + bookingsTopic + " (injected by the test)");
                        }
                        return List.of();
                    }
                    return Intercepted.PROCEED;
                }),
                null);

        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(lookups).hasValueGreaterThan(1);
            assertThat(bookedH200()).isEqualTo(6);
            assertThat(queues.localQueue("team-a", "gpuaas")).isPresent();
        });
        send(Topics.BOOKINGS, "b6", booking("b6"));
        await().atMost(WAIT).untilAsserted(() -> assertThat(bookedH200()).isEqualTo(7));
        assertThat(stateFeed.health().ready()).isTrue();
    }

    @Test
    void shouldFollowTheTopicsWhenTheyAreCreatedAfterTheFeedsStarted() {
        prefix = broker.uniquePrefix();
        clients.close();
        clients = gateway(broker, prefix);
        start(clientId -> KafkaFactory.projectionConsumer(clients, clientId), null);
        await().during(Duration.ofSeconds(1))
                .atMost(WAIT)
                .until(() -> stateFeed.health().alive() && !stateFeed.health().ready());

        try (Admin admin = broker.admin()) {
            TopicAdmin.createAll(admin, prefix);
        }
        send(Topics.BOOKINGS, "b-late", booking("b-late"));

        await().atMost(WAIT).untilAsserted(() -> assertThat(bookedH200()).isEqualTo(1));
        await().atMost(WAIT)
                .until(() -> stateFeed.health().ready() && sampleFeed.health().ready());
    }

    @Test
    void shouldDeadLetterAPoisonRecordAndApplyTheRecordsBehindItWhenTheFirstDeadLetterWritesFail() throws Exception {
        String topic = Topics.QUOTA_STATE.name(prefix);
        long poison = sendRaw(new ProducerRecord<>(
                topic, 0, "lq/x/poison".getBytes(StandardCharsets.UTF_8), "{}".getBytes(StandardCharsets.UTF_8)));
        send(Topics.QUOTA_STATE, 0, "lq/team-a/after", queue("after"));
        deadLetterProducer.failures.set(2);

        start(clientId -> KafkaFactory.projectionConsumer(clients, clientId), null);

        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(queues.localQueue("team-a", "after")).isPresent();
            assertThat(deadLetterProducer.history()).singleElement().satisfies(letter -> assertThat(new String(
                            letter.headers()
                                    .lastHeader(DeadLetterPublisher.OFFSET)
                                    .value(),
                            StandardCharsets.UTF_8))
                    .isEqualTo(Long.toString(poison)));
        });
        assertThat(deadLetterProducer.failures).hasNegativeValue();
        assertThat(stateFeed.health().restarts()).isPositive();
        await().atMost(WAIT).until(() -> stateFeed.health().ready());
    }

    @Test
    void shouldKeepFollowingTheTopicsWhenAPollFails() {
        AtomicInteger polls = new AtomicInteger();
        start(
                clientId -> Intercepted.consumer(KafkaFactory.projectionConsumer(clients, clientId), (method, args) -> {
                    if (method.getName().equals("poll")
                            && clientId.endsWith(ProjectionFeeds.STATE_FEED)
                            && polls.incrementAndGet() == 3) {
                        throw new KafkaException("poll failure injected by the test");
                    }
                    return Intercepted.PROCEED;
                }),
                null);
        await().atMost(WAIT).until(() -> polls.get() > 3);

        send(Topics.QUOTA_STATE, "lq/team-a/later", queue("later"));

        await().atMost(WAIT).untilAsserted(() -> assertThat(queues.localQueue("team-a", "later"))
                .isPresent());
        assertThat(stateFeed.health().restarts()).isPositive();
        await().atMost(WAIT).until(() -> stateFeed.health().ready());
    }

    @Test
    void shouldBeDeadWhileTheSampleFeedGoesOnWhenAProjectionDiesOfAnError() {
        start(clientId -> KafkaFactory.projectionConsumer(clients, clientId), (topic, key) -> {
            if (key.equals("lq/team-a/fatal")) {
                throw new StackOverflowError("injected by the test");
            }
        });
        await().atMost(WAIT)
                .until(() -> stateFeed.health().ready() && sampleFeed.health().ready());

        send(Topics.QUOTA_STATE, "lq/team-a/fatal", queue("fatal"));

        await().atMost(WAIT).until(() -> stateFeed.health().state() == State.DEAD);
        assertThat(stateFeed.health().alive()).isFalse();
        send(Topics.GPU_SAMPLES, "n1", sample("GPU-a"));
        await().atMost(WAIT).untilAsserted(() -> assertThat(allocated()).isEqualTo(1));
        assertThat(sampleFeed.health().ready()).isTrue();
    }

    @Test
    void shouldChargeOnlySamplesSentAfterTheSampleFeedWasAssignedWhenFollowingFromTheEnd() throws Exception {
        send(Topics.GPU_SAMPLES, "n1", sample("GPU-before"));
        start(clientId -> KafkaFactory.projectionConsumer(clients, clientId), null);
        assertThat(sampleFeed.awaitCaughtUp(WAIT)).isTrue();

        // Right after caught up, before any poll could have moved a lazily resolved position (decision 0009).
        send(Topics.GPU_SAMPLES, "n1", sample("GPU-after"));

        await().atMost(WAIT).untilAsserted(() -> assertThat(allocated()).isEqualTo(1));
        send(Topics.GPU_SAMPLES, "n1", sample("GPU-later"));
        await().atMost(WAIT).untilAsserted(() -> assertThat(allocated()).isEqualTo(2));
    }

    private void start(Function<String, Consumer<byte[], byte[]>> consumers, ProjectionHook hook) {
        DeadLetterPublisher deadLetters = new DeadLetterPublisher(
                deadLetterProducer, Topics.DEAD_LETTER.name(prefix), "metrics-gateway", new PrometheusRegistry());
        ProjectionFeeds feeds = new ProjectionFeeds(consumers, prefix, deadLetters, deadLetters, FAST, hook);
        stateFeed = feeds.stateFeed(queues, bookings, new ReclaimState());
        sampleFeed = feeds.sampleFeed(usage);
        stateFeed.start();
        sampleFeed.start();
    }

    private int bookedH200() {
        return bookings.activeAt(Instant.now()).getOrDefault("team-a", Map.of()).getOrDefault("h200", 0);
    }

    private int allocated() {
        TenantUsage.TenantGauges gauges = usage.gauges(Instant.now()).get("team-a");
        return gauges == null ? 0 : gauges.allocated();
    }

    /** The projections run as metrics-gateway with exactly its ACLs; the test writes their input as the super user. */
    private static KafkaClients gateway(KafkaBroker broker, String prefix) {
        return new KafkaClients(new KafkaSettings(
                broker.bootstrapServers(),
                prefix,
                broker.serviceCredentials(METRICS_GATEWAY.userName(), KafkaAccess.acls(METRICS_GATEWAY, prefix))));
    }

    private <V> void send(TopicSpec<String, V> topic, String key, V value) {
        send(topic, null, key, value);
    }

    private <V> void send(TopicSpec<String, V> topic, Integer partition, String key, V value) {
        try (KafkaProducer<String, V> producer = new KafkaProducer<>(
                broker.clientProperties(),
                topic.keySerde().serializer(),
                topic.valueSerde().serializer())) {
            producer.send(new ProducerRecord<>(topic.name(prefix), partition, key, value))
                    .get();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private long sendRaw(ProducerRecord<byte[], byte[]> record) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(broker.clientProperties(), new ByteArraySerializer(), new ByteArraySerializer())) {
            return producer.send(record).get().offset();
        }
    }

    private static Booking booking(String id) {
        Instant now = Instant.now();
        return new Booking(
                id,
                "team-a",
                "team-a",
                "h200",
                "h200",
                "nvidia.com/gpu",
                1,
                now.minusSeconds(60),
                now.plusSeconds(3600),
                null,
                BookingState.ACTIVE,
                "alice",
                now,
                now,
                1);
    }

    private static QueueState queue(String name) {
        return QueueStates.localQueue("team-a", name, 1);
    }

    private static GpuScrape sample(String uuid) {
        return TestScrapes.attributed("n1", uuid, "team-a", Instant.now(), 0.5);
    }
}
