package io.gpuaas.kit.kafka;

import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.TopicSpec;
import io.gpuaas.events.Topics;
import io.gpuaas.kit.config.KafkaSettings;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Client configurations every gpuaas service uses: idempotent {@code acks=all} producers, read-committed consumers
 * without auto-commit, exactly-once Kafka Streams. Also owns the process's shared dead-letter producer and admin.
 */
@Singleton
public class KafkaClients implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaClients.class);

    private final KafkaSettings settings;
    private volatile Producer<byte[], byte[]> deadLetterProducer;
    private volatile Admin admin;

    public KafkaClients(KafkaSettings settings) {
        this.settings = settings;
        LOG.info("Kafka: {}", settings);
    }

    public KafkaSettings settings() {
        return settings;
    }

    /** The full name of {@code topic} with the configured prefix. */
    public String topic(TopicSpec<?, ?> topic) {
        return topic.name(settings.topicPrefix());
    }

    private Map<String, Object> common() {
        Map<String, Object> config = new HashMap<>(settings.properties());
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers());
        return config;
    }

    /** Idempotent producer settings: {@code acks=all}, no duplicates on retry, ordering kept per partition. */
    public Map<String, Object> producerConfig(String clientId) {
        Map<String, Object> config = common();
        config.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5);
        config.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        // Our producers send a few records per batch (one booking command, a scrape's 8 GPUs over 24 partitions):
        // Kafka's lz4 stream allocates two 64 KiB block buffers per batch (~21 µs and 132 KiB for a 1-record batch),
        // snappy reuses its buffers and compresses these records as well (README, "Producer compression").
        config.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "snappy");
        return config;
    }

    /** Consumer settings: manual commits, only committed transactional data. */
    public Map<String, Object> consumerConfig(String groupId) {
        Map<String, Object> config = common();
        if (groupId != null) {
            config.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        }
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        return config;
    }

    /**
     * A new byte-array consumer without a group, as a {@code runtime.TopicReplica} takes them
     * ({@code () -> clients.replicaConsumer("booking-feed")}): it assigns partitions itself, never commits, and never
     * asks the broker to create a topic it looks up.
     */
    public Consumer<byte[], byte[]> replicaConsumer(String clientId) {
        Map<String, Object> config = consumerConfig(null);
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        config.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /**
     * Kafka Streams settings with {@code exactly_once_v2}. The stream threads' consumers get a 10 s session timeout
     * unless {@code session.timeout.ms} is configured: a replica killed without leaving the group holds its tasks
     * until then, and Kafka's 45 s default is long for a service that has a second replica waiting.
     */
    public Map<String, Object> streamsConfig(String applicationId) {
        Map<String, Object> config = common();
        config.put("application.id", applicationId);
        config.put("processing.guarantee", "exactly_once_v2");
        config.put("commit.interval.ms", 100);
        if (!config.containsKey(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG)) {
            config.put("consumer." + ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 10_000);
            config.put("consumer." + ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 3_000);
        }
        return config;
    }

    /** One producer per process for dead letters (original bytes, so byte serializers). */
    public Producer<byte[], byte[]> deadLetterProducer() {
        if (deadLetterProducer == null) {
            synchronized (this) {
                if (deadLetterProducer == null) {
                    deadLetterProducer = new KafkaProducer<>(
                            producerConfig("gpuaas-dead-letter"), new ByteArraySerializer(), new ByteArraySerializer());
                }
            }
        }
        return deadLetterProducer;
    }

    /**
     * A dead-letter publisher on the process's one dead-letter producer and this deployment's dead-letter topic.
     *
     * @param group    written to {@code gpuaas_dlq_group}: the consumer group or application id that gave up
     * @param registry where {@code gpuaas_dead_letter_records_total} is counted
     */
    public DeadLetterPublisher deadLetterPublisher(String group, PrometheusRegistry registry) {
        return new DeadLetterPublisher(deadLetterProducer(), topic(Topics.DEAD_LETTER), group, registry);
    }

    /** A shared admin client (readiness checks, topic checks). */
    public Admin admin() {
        if (admin == null) {
            synchronized (this) {
                if (admin == null) {
                    Map<String, Object> config = common();
                    config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
                    config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5_000);
                    admin = Admin.create(config);
                }
            }
        }
        return admin;
    }

    @PreDestroy
    @Override
    public void close() {
        if (deadLetterProducer != null) {
            deadLetterProducer.close(java.time.Duration.ofSeconds(5));
        }
        if (admin != null) {
            admin.close(java.time.Duration.ofSeconds(5));
        }
    }
}
