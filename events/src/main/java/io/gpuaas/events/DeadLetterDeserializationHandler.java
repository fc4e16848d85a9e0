package io.gpuaas.events;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kafka Streams {@code deserialization.exception.handler} that sends every record a source node cannot read to the
 * dead-letter topic (see {@link DeadLetterPublisher}) and lets the task continue with the next record.
 *
 * <p>Configure it with {@code StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG} and either
 * <ul>
 *   <li>{@value #PUBLISHER_CONFIG}: a {@link DeadLetterPublisher} instance (preferred; the Streams config map
 *       passes objects through to {@link #configure}), or</li>
 *   <li>nothing: the handler then builds one byte-array producer per application id from the Streams client
 *       configs (bootstrap servers, security, {@code producer.*} overrides), writing to {@value #TOPIC_CONFIG}
 *       (default {@value #PREFIX_CONFIG} + {@code dead-letter}, prefix default {@code gpuaas.}) and counting on
 *       {@value #REGISTRY_CONFIG} (a {@link PrometheusRegistry}, default the process-wide default registry).</li>
 * </ul>
 * If the dead-letter write fails the handler answers {@code FAIL}: the task stops rather than lose the record.
 */
public final class DeadLetterDeserializationHandler implements DeserializationExceptionHandler {

    /** Config key for a ready {@link DeadLetterPublisher}. */
    public static final String PUBLISHER_CONFIG = "gpuaas.dead.letter.publisher";
    /** Config key for the full dead-letter topic name when no publisher is given. */
    public static final String TOPIC_CONFIG = "gpuaas.dead.letter.topic";
    /** Config key for the topic prefix the dead-letter topic name is derived from. */
    public static final String PREFIX_CONFIG = "gpuaas.topic.prefix";
    /** Config key for the {@link PrometheusRegistry} when no publisher is given. */
    public static final String REGISTRY_CONFIG = "gpuaas.dead.letter.registry";

    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterDeserializationHandler.class);
    /** Streams creates a handler per thread or task; one producer per application is enough. */
    private static final Map<String, DeadLetterPublisher> OWN_PUBLISHERS = new ConcurrentHashMap<>();

    private DeadLetterPublisher publisher;

    @Override
    public void configure(Map<String, ?> configs) {
        if (configs.get(PUBLISHER_CONFIG) instanceof DeadLetterPublisher given) {
            publisher = given;
            return;
        }
        String applicationId = String.valueOf(configs.get(StreamsConfig.APPLICATION_ID_CONFIG));
        publisher = OWN_PUBLISHERS.computeIfAbsent(applicationId, id -> ownPublisher(id, configs));
    }

    @Override
    public DeserializationHandlerResponse handle(
            ErrorHandlerContext context, ConsumerRecord<byte[], byte[]> record, Exception exception) {
        try {
            publisher.publish(record, exception);
            return DeserializationHandlerResponse.CONTINUE;
        } catch (KafkaException e) {
            LOG.error(
                    "cannot dead-letter {}-{}@{} in {}; stopping the task",
                    record.topic(),
                    record.partition(),
                    record.offset(),
                    context.taskId(),
                    e);
            return DeserializationHandlerResponse.FAIL;
        }
    }

    private static DeadLetterPublisher ownPublisher(String applicationId, Map<String, ?> configs) {
        Map<String, Object> producerConfigs =
                new StreamsConfig(configs).getProducerConfigs(applicationId + "-dead-letter");
        producerConfigs.remove(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
        producerConfigs.put(ProducerConfig.ACKS_CONFIG, "all");
        producerConfigs.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        producerConfigs.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        producerConfigs.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        Object prefix = configs.get(PREFIX_CONFIG);
        Object topic = configs.get(TOPIC_CONFIG);
        String deadLetterTopic = topic != null
                ? topic.toString()
                : Topics.DEAD_LETTER.name(prefix != null ? prefix.toString() : Topics.DEFAULT_PREFIX);
        PrometheusRegistry registry =
                configs.get(REGISTRY_CONFIG) instanceof PrometheusRegistry r ? r : PrometheusRegistry.defaultRegistry;
        return new DeadLetterPublisher(new KafkaProducer<>(producerConfigs), deadLetterTopic, applicationId, registry);
    }
}
