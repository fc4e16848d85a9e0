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
import io.gpuaas.events.quota.QueueState;
import io.gpuaas.kit.config.KafkaSettings;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.metrics.KafkaFactory;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The projection consumer on a real broker: late topics, failing dead letters, failing polls. */
@ExtendWith(KafkaBrokerExtension.class)
class ProjectionConsumerIT {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private KafkaBroker broker;
    private KafkaClients clients;
    private String prefix;
    private final Set<String> queues = ConcurrentHashMap.newKeySet();
    private final Set<String> bookings = ConcurrentHashMap.newKeySet();
    private final FailingProducer deadLetterProducer = new FailingProducer();
    private ProjectionConsumer projections;
    private Thread thread;

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
    void stop() throws InterruptedException {
        if (projections != null) {
            projections.close();
            thread.join(10_000);
        }
        clients.close();
    }

    @Test
    void shouldReadEveryExistingBookingWhenTheBookingsTopicIsFollowedAfterTheOtherTopics() {
        List.of("b0", "b1", "b2", "b3", "b4", "b5").forEach(id -> send(Topics.BOOKINGS, id, booking(id)));
        send(Topics.QUOTA_STATE, "lq/team-a/gpuaas", queue());
        String bookingsTopic = Topics.BOOKINGS.name(prefix);
        AtomicInteger lookups = new AtomicInteger();
        // What a loaded machine did: the first metadata lookup of gpuaas.bookings timed out, so that topic joined
        // the assignment one retry later, after quota-state, reclaim-events and gpu-samples.
        start(intercept(KafkaFactory.projectionConsumer(clients), (method, args) -> {
            if (method.getName().equals("partitionsFor") && bookingsTopic.equals(args[0])
                    && lookups.getAndIncrement() == 0) {
                throw new TimeoutException("metadata of " + bookingsTopic + " (injected by the test)");
            }
        }), (key, state) -> { });

        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(lookups).hasValueGreaterThan(1);
            assertThat(bookings).containsExactlyInAnyOrder("b0", "b1", "b2", "b3", "b4", "b5");
            assertThat(queues).contains("lq/team-a/gpuaas");
        });
        send(Topics.BOOKINGS, "b6", booking("b6"));
        await().atMost(WAIT).untilAsserted(() -> assertThat(bookings).contains("b6"));
    }

    @Test
    void shouldFollowTheTopicsWhenTheyAreCreatedAfterTheConsumerStarted(KafkaBroker broker) {
        prefix = broker.uniquePrefix();
        clients.close();
        clients = gateway(broker, prefix);
        start(KafkaFactory.projectionConsumer(clients), (key, state) -> { });
        await().during(Duration.ofSeconds(1)).atMost(WAIT).until(() -> thread.isAlive() && !projections.caughtUp());

        try (Admin admin = broker.admin()) {
            TopicAdmin.createAll(admin, prefix);
        }
        send(Topics.BOOKINGS, "b-late", booking("b-late"));

        await().atMost(WAIT).untilAsserted(() -> assertThat(bookings).contains("b-late"));
        assertThat(projections.caughtUp()).isTrue();
    }

    @Test
    void shouldDeadLetterAPoisonRecordAndApplyTheRecordsBehindItWhenTheFirstDeadLetterWritesFail() throws Exception {
        String topic = Topics.QUOTA_STATE.name(prefix);
        long poison = sendRaw(new ProducerRecord<>(topic, 0, "lq/x/poison".getBytes(StandardCharsets.UTF_8),
                "{}".getBytes(StandardCharsets.UTF_8)));
        send(Topics.QUOTA_STATE, 0, "lq/team-a/after", queue());
        deadLetterProducer.failures.set(2);

        start(KafkaFactory.projectionConsumer(clients), (key, state) -> { });

        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(queues).contains("lq/team-a/after");
            assertThat(deadLetterProducer.history()).singleElement().satisfies(letter -> assertThat(new String(
                    letter.headers().lastHeader(DeadLetterPublisher.OFFSET).value(), StandardCharsets.UTF_8))
                    .isEqualTo(Long.toString(poison)));
        });
        assertThat(deadLetterProducer.failures).hasNegativeValue();
        assertThat(projections.caughtUp()).isTrue();
    }

    @Test
    void shouldKeepFollowingTheTopicsWhenAPollFails() {
        AtomicInteger polls = new AtomicInteger();
        start(intercept(KafkaFactory.projectionConsumer(clients), (method, args) -> {
            if (method.getName().equals("poll") && polls.incrementAndGet() == 3) {
                throw new KafkaException("poll failure injected by the test");
            }
        }), (key, state) -> { });
        await().atMost(WAIT).until(() -> polls.get() > 3);

        send(Topics.QUOTA_STATE, "lq/team-a/later", queue());

        await().atMost(WAIT).untilAsserted(() -> assertThat(queues).contains("lq/team-a/later"));
        assertThat(projections.caughtUp()).isTrue();
    }

    @Test
    void shouldStopReportingCaughtUpWhenTheLoopDiesOfAnError() {
        start(KafkaFactory.projectionConsumer(clients), (key, state) -> {
            throw new StackOverflowError("injected by the test");
        });
        await().atMost(WAIT).dontCatchUncaughtExceptions().until(projections::caughtUp);

        send(Topics.QUOTA_STATE, "lq/team-a/fatal", queue());

        // The Error is rethrown to the thread's end on purpose; Awaitility would otherwise report it as ours.
        await().atMost(WAIT).dontCatchUncaughtExceptions().until(() -> !thread.isAlive());
        assertThat(projections.caughtUp()).isFalse();
    }

    private void start(Consumer<byte[], byte[]> consumer, java.util.function.BiConsumer<String, Object> onQueue) {
        DeadLetterPublisher deadLetters = new DeadLetterPublisher(deadLetterProducer, Topics.DEAD_LETTER.name(prefix),
                "metrics-gateway", new PrometheusRegistry());
        projections = new ProjectionConsumer(consumer, prefix, deadLetters, List.of(
                new ProjectionConsumer.Feed<>(Topics.QUOTA_STATE, true, (key, state) -> {
                    onQueue.accept(key, state);
                    queues.add(key);
                }),
                new ProjectionConsumer.Feed<>(Topics.BOOKINGS, true, (key, booking) -> bookings.add(key)),
                new ProjectionConsumer.Feed<>(Topics.RECLAIM_EVENTS, true, (key, event) -> { }),
                new ProjectionConsumer.Feed<>(Topics.GPU_SAMPLES, false, (key, sample) -> { })));
        thread = Thread.ofPlatform().name("projections-it").daemon().start(projections);
    }

    /** The projections run as metrics-gateway with exactly its ACLs; the test writes their input as the super user. */
    private static KafkaClients gateway(KafkaBroker broker, String prefix) {
        return new KafkaClients(new KafkaSettings(broker.bootstrapServers(), prefix,
                broker.serviceCredentials(METRICS_GATEWAY.userName(), KafkaAccess.acls(METRICS_GATEWAY, prefix))));
    }

    private <V> void send(TopicSpec<String, V> topic, String key, V value) {
        send(topic, null, key, value);
    }

    private <V> void send(TopicSpec<String, V> topic, Integer partition, String key, V value) {
        try (KafkaProducer<String, V> producer = new KafkaProducer<>(broker.clientProperties(),
                topic.keySerde().serializer(), topic.valueSerde().serializer())) {
            producer.send(new ProducerRecord<>(topic.name(prefix), partition, key, value)).get();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private long sendRaw(ProducerRecord<byte[], byte[]> record) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(broker.clientProperties(),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            return producer.send(record).get().offset();
        }
    }

    private static Booking booking(String id) {
        Instant now = Instant.now();
        return new Booking(id, "team-a", "team-a", "h200", "h200", "nvidia.com/gpu", 1, now.minusSeconds(60),
                now.plusSeconds(3600), null, BookingState.ACTIVE, "alice", now, now, 1);
    }

    private static QueueState queue() {
        return new QueueState(QueueState.Kind.LOCAL_QUEUE, "gpuaas-team-a", "team-a", "gpuaas", "gpuaas-pool",
                "team-a", Map.of(), Map.of(), Map.of(), 1, 0, 0,
                Map.of("nvidia.com/gpu", BigDecimal.ONE), Instant.now());
    }

    /** A consumer that runs {@code before} ahead of every call (to inject a failure), then the real one. */
    @SuppressWarnings("unchecked")
    private static Consumer<byte[], byte[]> intercept(Consumer<byte[], byte[]> real, Hook before) {
        return (Consumer<byte[], byte[]>) Proxy.newProxyInstance(Consumer.class.getClassLoader(),
                new Class<?>[] {Consumer.class}, (proxy, method, args) -> {
                    before.call(method, args);
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    private interface Hook {
        void call(Method method, Object[] args);
    }

    /** The dead-letter topic's producer while the broker does not take writes: the first sends fail. */
    private static final class FailingProducer extends MockProducer<byte[], byte[]> {
        final AtomicInteger failures = new AtomicInteger();

        FailingProducer() {
            super(true, null, new ByteArraySerializer(), new ByteArraySerializer());
        }

        @Override
        public synchronized Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record) {
            if (failures.getAndDecrement() > 0) {
                return CompletableFuture.failedFuture(new TimeoutException("dead-letter topic unavailable (test)"));
            }
            return super.send(record);
        }
    }
}
