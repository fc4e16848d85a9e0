package io.gpuaas.kit.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuaas.events.CloudEvents;
import io.gpuaas.events.KafkaAccess;
import io.gpuaas.events.KafkaPrincipal;
import io.gpuaas.events.TopicAdmin;
import io.gpuaas.events.Topics;
import io.gpuaas.events.notice.Notice;
import io.gpuaas.testing.auth.TestJwt;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import io.micronaut.configuration.kafka.ConsumerRegistry;
import io.micronaut.configuration.kafka.config.KafkaDefaultConfiguration;
import io.micronaut.configuration.kafka.health.KafkaHealthIndicator;
import io.micronaut.context.ApplicationContext;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Producers from micronaut-kafka's registry in an application context configured as a service is: its own SASL user
 * with quota-projector's ACLs under {@code gpuaas.kafka.*}, and one operator key under {@code kafka.producers.*}.
 */
@ExtendWith(KafkaBrokerExtension.class)
class ProducerRegistryIT {

    private static final KafkaPrincipal PRINCIPAL = KafkaPrincipal.QUOTA_PROJECTOR;
    private static final String TUNED = "kit-it-tuned";
    private static final String PLAIN = "kit-it-plain";
    /** Over the operator's {@code max.request.size} for {@link #TUNED}, far under Kafka's default. */
    private static final String LARGE_REASON = "x".repeat(4096);

    private KafkaBroker broker;
    private String prefix;
    private ApplicationContext context;
    private KafkaClients clients;

    @BeforeEach
    void start(KafkaBroker broker) {
        this.broker = broker;
        prefix = broker.uniquePrefix();
        try (Admin admin = broker.admin()) {
            TopicAdmin.createAll(admin, prefix);
        }
        Map<String, Object> properties =
                new HashMap<>(broker.serviceProperties(PRINCIPAL.userName(), KafkaAccess.acls(PRINCIPAL, prefix)));
        properties.put("gpuaas.kafka.topic-prefix", prefix);
        properties.put("gpuaas.security.issuer", TestJwt.ISSUER);
        properties.put("gpuaas.security.audience", TestJwt.AUDIENCE);
        properties.put("kafka.producers." + TUNED + ".max.request.size", 2048);
        context = ApplicationContext.run(properties);
        clients = context.getBean(KafkaClients.class);
    }

    @AfterEach
    void stop() {
        if (context.isRunning()) {
            context.close();
        }
    }

    @Test
    void shouldWriteAsTheServiceUserIdempotentlyWithTheTopicsSerdeWhenTheRegistryMakesTheProducer() throws Exception {
        Producer<String, Notice> producer = clients.producer(PLAIN, Topics.NOTICES);
        Notice notice = notice("b-1", "MIG manager reports failed");

        RecordMetadata sent = producer.send(new ProducerRecord<>(clients.topic(Topics.NOTICES), "b-1", notice))
                .get(30, TimeUnit.SECONDS);

        ConsumerRecord<byte[], byte[]> record = readBack(sent);
        assertThat(new String(record.headers().lastHeader(CloudEvents.TYPE).value()))
                .isEqualTo("io.gpuaas.notice.mig-layout-not-ready.v1");
        assertThat(Topics.NOTICES
                        .valueSerde()
                        .deserializer()
                        .deserialize(record.topic(), record.headers(), record.value()))
                .isEqualTo(notice);
        assertThat(activeProducers(sent))
                .as("an idempotent producer (which Kafka allows only with acks=all) has a producer id on the partition")
                .isNotEmpty();
        assertThatThrownBy(() -> producer.send(new ProducerRecord<>(prefix + "booking-commands", "p", notice))
                        .get(30, TimeUnit.SECONDS))
                .as("quota-projector's user may not write booking commands")
                .hasCauseInstanceOf(TopicAuthorizationException.class);
        assertThat(clients.producer(PLAIN, Topics.NOTICES))
                .as("one producer per client id")
                .isSameAs(producer);
    }

    @Test
    void shouldApplyAnOperatorKeyToItsProducerOnlyWhenSetUnderKafkaProducers() throws Exception {
        Producer<String, Notice> tuned = clients.producer(TUNED, Topics.NOTICES);
        Producer<String, Notice> plain = clients.producer(PLAIN, Topics.NOTICES);

        assertThatThrownBy(() -> tuned.send(large("b-2")).get(30, TimeUnit.SECONDS))
                .hasCauseInstanceOf(RecordTooLargeException.class);
        assertThat(plain.send(large("b-2")).get(30, TimeUnit.SECONDS).offset()).isNotNegative();
    }

    @Test
    void shouldLetTheOperatorWinOverTheCodeWhenBothTuneOneProducer() {
        Producer<String, Notice> tuned = clients.producer(
                TUNED, String.class, Notice.class, Map.of(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 1_048_576));

        assertThatThrownBy(() -> tuned.send(large("b-3")).get(30, TimeUnit.SECONDS))
                .hasCauseInstanceOf(RecordTooLargeException.class);
        assertThatThrownBy(() -> clients.producer(TUNED, Topics.NOTICES))
                .as("the same client id with other settings")
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldCloseTheProducersWhenTheContextStops() throws Exception {
        Producer<String, Notice> producer = clients.producer(PLAIN, Topics.NOTICES);
        Producer<byte[], byte[]> deadLetters = clients.deadLetterProducer();
        producer.send(new ProducerRecord<>(clients.topic(Topics.NOTICES), "b-4", notice("b-4", "pending")))
                .get(30, TimeUnit.SECONDS);

        context.close();

        ProducerRecord<String, Notice> after =
                new ProducerRecord<>(clients.topic(Topics.NOTICES), "b-5", notice("b-5", "pending"));
        assertThatThrownBy(() -> producer.send(after))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
        assertThatThrownBy(() -> deadLetters.send(new ProducerRecord<>(clients.topic(Topics.DEAD_LETTER), new byte[1])))
                .isInstanceOf(IllegalStateException.class);
        assertThat(Thread.getAllStackTraces().keySet())
                .extracting(Thread::getName)
                .noneMatch(name -> name.endsWith("| " + PLAIN));
    }

    @Test
    void shouldStartNoKafkaClientOfItsOwnWhenMicronautKafkaIsOnTheClasspath() {
        assertThat(context.getBean(KafkaDefaultConfiguration.class).getConfig())
                .as("micronaut-kafka's root configuration is gpuaas.kafka's")
                .containsEntry("bootstrap.servers", broker.bootstrapServers())
                .containsEntry("security.protocol", "SASL_PLAINTEXT")
                .doesNotContainKey("health.enabled");
        assertThat(context.findBean(KafkaHealthIndicator.class))
                .as("readiness has one Kafka check, the kit's")
                .isEmpty();
        assertThat(context.getActiveBeanRegistrations(AdminClient.class))
                .as("micronaut-kafka's admin client, which nothing asks for")
                .isEmpty();
        assertThat(context.getActiveBeanRegistrations(ConsumerRegistry.class))
                .as("its listener machinery (and consumer thread pool), without a @KafkaListener")
                .isEmpty();
    }

    /** A new record each send: the producer closes a record's headers once it has serialized them. */
    private ProducerRecord<String, Notice> large(String bookingId) {
        return new ProducerRecord<>(clients.topic(Topics.NOTICES), bookingId, notice(bookingId, LARGE_REASON));
    }

    private static Notice notice(String bookingId, String reason) {
        Instant start = Instant.parse("2026-12-01T10:00:00Z");
        return new Notice.MigLayoutNotReady(
                bookingId + "/mig-layout-not-ready@" + start,
                bookingId,
                "team-a",
                "team-a",
                "h200-flex",
                "node-1",
                "failed",
                reason,
                start,
                Instant.parse("2026-12-01T09:55:00Z"));
    }

    private ConsumerRecord<byte[], byte[]> readBack(RecordMetadata sent) {
        Map<String, Object> config = broker.clientProperties();
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            TopicPartition partition = new TopicPartition(sent.topic(), sent.partition());
            consumer.assign(List.of(partition));
            consumer.seek(partition, sent.offset());
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    if (record.offset() == sent.offset()) {
                        return record;
                    }
                }
            }
        }
        throw new AssertionError("record at " + sent + " never read back");
    }

    private List<ProducerState> activeProducers(RecordMetadata sent)
            throws InterruptedException, ExecutionException, TimeoutException {
        TopicPartition partition = new TopicPartition(sent.topic(), sent.partition());
        try (Admin admin = broker.admin()) {
            return admin.describeProducers(List.of(partition))
                    .partitionResult(partition)
                    .get(30, TimeUnit.SECONDS)
                    .activeProducers();
        }
    }
}
