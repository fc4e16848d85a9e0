package io.gpuaas.kit.kafka;

import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.TopicSpec;
import io.gpuaas.events.Topics;
import io.gpuaas.kit.config.KafkaSettings;
import io.micronaut.configuration.kafka.ProducerRegistry;
import io.micronaut.core.type.Argument;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka clients of a gpuaas service, all from {@code gpuaas.kafka.*}: producers from micronaut-kafka's
 * {@link ProducerRegistry} (idempotent, {@code acks=all}, serializers by the topic registry's types, closed with the
 * context, tunable per client id under {@code kafka.producers.<client-id>.*}), read-committed consumers without
 * auto-commit, exactly-once Kafka Streams settings, and the process's shared dead-letter producer and admin.
 * Built outside a context ({@link #KafkaClients(KafkaSettings)}), it makes the producers itself on the same settings
 * and closes them in {@link #close()}.
 */
@Singleton
public class KafkaClients implements AutoCloseable {

    /** The client id of the process's one dead-letter producer. */
    public static final String DEAD_LETTER_PRODUCER = "gpuaas-dead-letter";

    private static final Logger LOG = LoggerFactory.getLogger(KafkaClients.class);

    private final KafkaSettings settings;
    private final ProducerRegistry producers;
    private final ProducerTuning tuning;
    private final OwnedProducers owned;
    private volatile Admin admin;

    /** In an application context: micronaut-kafka's registry makes the producers and closes them with the context. */
    @Inject
    public KafkaClients(KafkaSettings settings, ProducerRegistry producers, ProducerTuning tuning) {
        this(settings, producers, tuning, null);
    }

    /** Outside an application context: producers are made here on the same settings, and closed by {@link #close()}. */
    public KafkaClients(KafkaSettings settings) {
        this(settings, new ProducerTuning());
    }

    private KafkaClients(KafkaSettings settings, ProducerTuning tuning) {
        this(settings, null, tuning, new OwnedProducers(() -> common(settings), tuning, new TopicSerdes()));
    }

    private KafkaClients(
            KafkaSettings settings, ProducerRegistry producers, ProducerTuning tuning, OwnedProducers owned) {
        this.settings = settings;
        this.producers = owned != null ? owned : producers;
        this.tuning = tuning;
        this.owned = owned;
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
        return common(settings);
    }

    private static Map<String, Object> common(KafkaSettings settings) {
        Map<String, Object> config = new HashMap<>(settings.properties());
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers());
        return config;
    }

    /**
     * The producer {@code clientId} for {@code topic}: the topic's key and value serializers, the kit's producer
     * settings ({@link ProducerSettings}). One per client id for the process; never close it (the registry does).
     */
    public <K, V> Producer<K, V> producer(String clientId, TopicSpec<K, V> topic) {
        return producer(clientId, topic.keyType(), topic.valueType(), Map.of());
    }

    /**
     * As {@link #producer(String, TopicSpec)} for any key and value types a topic of the registry has (e.g.
     * {@code byte[]} for records encoded before the send), with {@code settings} for this producer over the kit's
     * defaults; {@code kafka.producers.<clientId>.*} still wins over them. Asking twice for one client id with other
     * settings is refused ({@link ProducerTuning}).
     */
    public <K, V> Producer<K, V> producer(
            String clientId, Class<K> keyType, Class<V> valueType, Map<String, ?> settings) {
        tuning.register(clientId, settings);
        return producers.getProducer(clientId, Argument.of(keyType), Argument.of(valueType));
    }

    /**
     * The settings a producer {@code clientId} gets here, for producers built by hand (transactional ones, which
     * the registry does not make to our settings, and benchmarks): {@link ProducerSettings} without operator keys.
     */
    public Map<String, Object> producerConfig(String clientId) {
        Map<String, Object> config = common();
        config.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        return ProducerSettings.layer(config, Map.of(), Map.of());
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
        return producer(DEAD_LETTER_PRODUCER, Topics.DEAD_LETTER);
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

    /** Closes the admin, and the producers when this instance made them (outside a context). */
    @PreDestroy
    @Override
    public void close() {
        if (owned != null) {
            owned.close();
        }
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
        }
    }
}
