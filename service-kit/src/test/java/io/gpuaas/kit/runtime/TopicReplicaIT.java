package io.gpuaas.kit.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.TopicSpec;
import io.gpuaas.events.Topics;
import io.gpuaas.kit.config.KafkaSettings;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.kit.runtime.ComponentHealth.State;
import io.gpuaas.kit.runtime.TopicReplica.StartAt;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.HealthResult;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Mono;

/**
 * A replica on the real broker, as its own Kafka user allowed to read the test's topics and nothing else, judged by
 * what the service's readiness says and by the records its handler got.
 */
@ExtendWith(KafkaBrokerExtension.class)
class TopicReplicaIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final int PARTITIONS = 3;

    private KafkaBroker broker;
    private String prefix;
    private List<AclBinding> acls;
    private KafkaClients clients;
    private KafkaProducer<byte[], byte[]> producer;
    private TopicSpec<String, Integer> counts;
    private final List<String> applied = new CopyOnWriteArrayList<>();
    private TopicReplica replica;
    private ComponentsReadiness readiness;

    @BeforeEach
    void setUp() {
        prefix = broker.uniquePrefix();
        counts = FakeLog.topic("counts", PARTITIONS, true);
        broker.createTopics(PARTITIONS, counts.name(prefix));
        broker.createTopics(1, Topics.DEAD_LETTER.name(prefix));
        String user = broker.uniqueGroupId("replica-it");
        acls = List.of(read(user, AclOperation.READ), read(user, AclOperation.DESCRIBE));
        clients = new KafkaClients(
                new KafkaSettings(broker.bootstrapServers(), prefix, broker.serviceCredentials(user, acls)));
        producer = new KafkaProducer<>(broker.clientProperties(), new ByteArraySerializer(), new ByteArraySerializer());
    }

    @AfterEach
    void tearDown() {
        if (replica != null) {
            replica.stop(Duration.ofSeconds(5));
        }
        producer.close();
        clients.close();
    }

    /** Starts the replica with {@code handler}; dead letters go out as the super user, the test's reader. */
    private void start(TopicReplica.RecordHandler<Integer> handler) {
        DeadLetterPublisher deadLetters = new DeadLetterPublisher(
                producer, Topics.DEAD_LETTER.name(prefix), "replica-it", new PrometheusRegistry());
        replica = TopicReplica.builder(
                        "counts-replica", () -> clients.replicaConsumer("replica-it"), prefix, deadLetters)
                .follow(counts, StartAt.BEGINNING, handler)
                .backoff(Duration.ofMillis(200), Duration.ofSeconds(2))
                .handlerRetries(1_000)
                .probe(Duration.ofSeconds(1), Duration.ofSeconds(3))
                .build();
        ServiceLifecycle lifecycle =
                new ServiceLifecycle(List.of(replica), new LifecycleSettings(Duration.ofSeconds(5)));
        readiness = new ComponentsReadiness(lifecycle);
        lifecycle.start();
    }

    private void record(String key, Integer value) {
        applied.add(key + "=" + value);
    }

    @Test
    void shouldBeReadyOnlyAfterTheRecordsThatExistedAtStartAreApplied() throws Exception {
        List<String> existing = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            send(i % PARTITIONS, "k" + i, Integer.toString(i));
            existing.add("k" + i + "=" + i);
        }
        producer.flush();
        List<HealthStatus> readinessDuringLoad = new CopyOnWriteArrayList<>();
        start((key, value) -> {
            if (applied.isEmpty()) {
                readinessDuringLoad.add(readinessStatus());
            }
            record(key, value);
        });

        assertThat(replica.awaitCaughtUp(WAIT)).isTrue();
        assertThat(applied).containsExactlyInAnyOrderElementsOf(existing);
        assertThat(readinessDuringLoad).containsExactly(HealthStatus.DOWN);
        await().atMost(WAIT).until(() -> readinessStatus() == HealthStatus.UP);
    }

    @Test
    void shouldBeUnreadyWhileTheHandlerFailsAndRecoverByItselfWithoutSkippingOrRepeating() throws Exception {
        AtomicBoolean broken = new AtomicBoolean();
        start((key, value) -> {
            if (broken.get() && key.equals("flaky")) {
                throw new IllegalStateException("view rejects it for now");
            }
            record(key, value);
        });
        assertThat(replica.awaitCaughtUp(WAIT)).isTrue();
        await().atMost(WAIT).until(() -> readinessStatus() == HealthStatus.UP);

        broken.set(true);
        send(0, "before", "1");
        send(0, "flaky", "2");
        send(0, "after", "3");
        await().atMost(WAIT).until(() -> readinessStatus() == HealthStatus.DOWN);
        assertThat(replica.health().state()).isEqualTo(State.RECOVERING);
        assertThat(applied).containsExactly("before=1");

        broken.set(false);
        await().atMost(WAIT).until(() -> readinessStatus() == HealthStatus.UP);
        await().atMost(WAIT).until(() -> applied.size() == 3);
        assertThat(applied).containsExactly("before=1", "flaky=2", "after=3");
    }

    @Test
    void shouldGoDownWhileCutOffFromTheBrokerAndFollowAgainWhenAccessReturns() throws Exception {
        send(1, "a", "1");
        producer.flush();
        start(this::record);
        assertThat(replica.awaitCaughtUp(WAIT)).isTrue();
        await().atMost(WAIT).until(() -> readinessStatus() == HealthStatus.UP);

        broker.deleteAcls(acls);
        send(1, "during-cut", "2");
        await().atMost(WAIT).until(() -> readinessStatus() == HealthStatus.DOWN);
        assertThat(replica.health().state()).isEqualTo(State.RECOVERING);
        assertThat(replica.health().alive()).isTrue();

        broker.createAcls(acls);
        await().atMost(WAIT).until(() -> readinessStatus() == HealthStatus.UP);
        send(2, "after-cut", "3");
        await().atMost(WAIT).until(() -> applied.size() == 3);
        assertThat(applied).containsExactly("a=1", "during-cut=2", "after-cut=3");
        assertThat(replica.health().restarts()).isPositive();
    }

    @Test
    void shouldDeadLetterAnUndecodableRecordAndMoveThePartitionOn() throws Exception {
        start(this::record);
        assertThat(replica.awaitCaughtUp(WAIT)).isTrue();

        long poison = send(2, "garbled", "{not a number").offset();
        send(2, "next", "5");
        await().atMost(WAIT).until(() -> applied.contains("next=5"));
        assertThat(applied).containsExactly("next=5");

        ConsumerRecord<byte[], byte[]> letter = firstDeadLetter();
        assertThat(new String(letter.key(), StandardCharsets.UTF_8)).isEqualTo("garbled");
        assertThat(header(letter, DeadLetterPublisher.TOPIC)).isEqualTo(counts.name(prefix));
        assertThat(header(letter, DeadLetterPublisher.OFFSET)).isEqualTo(Long.toString(poison));
        assertThat(readinessStatus()).isEqualTo(HealthStatus.UP);
    }

    private HealthStatus readinessStatus() {
        HealthResult result = Mono.from(readiness.getResult()).block(Duration.ofSeconds(5));
        return result.getStatus();
    }

    private org.apache.kafka.clients.producer.RecordMetadata send(int partition, String key, String value)
            throws Exception {
        return producer.send(new ProducerRecord<>(
                        counts.name(prefix),
                        partition,
                        key.getBytes(StandardCharsets.UTF_8),
                        value.getBytes(StandardCharsets.UTF_8)))
                .get(30, TimeUnit.SECONDS);
    }

    private ConsumerRecord<byte[], byte[]> firstDeadLetter() {
        TopicPartition partition = new TopicPartition(Topics.DEAD_LETTER.name(prefix), 0);
        try (KafkaConsumer<byte[], byte[]> reader = new KafkaConsumer<>(
                broker.clientProperties(), new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            reader.assign(List.of(partition));
            reader.seekToBeginning(List.of(partition));
            List<ConsumerRecord<byte[], byte[]>> letters = new ArrayList<>();
            await().atMost(WAIT).until(() -> {
                reader.poll(Duration.ofMillis(200)).forEach(letters::add);
                return !letters.isEmpty();
            });
            return letters.getFirst();
        }
    }

    private AclBinding read(String user, AclOperation operation) {
        return new AclBinding(
                new ResourcePattern(ResourceType.TOPIC, prefix, PatternType.PREFIXED),
                new AccessControlEntry("User:" + user, "*", operation, AclPermissionType.ALLOW));
    }

    private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        return new String(record.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }
}
