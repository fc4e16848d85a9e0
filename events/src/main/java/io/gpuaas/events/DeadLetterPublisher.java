package io.gpuaas.events;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one consumer-side error path: writes a record that could not be processed to the dead-letter topic with its
 * original key, value and headers, and the reason in {@code gpuaas_dlq_*} headers, then counts it in
 * {@code gpuaas_dead_letter_records_total{topic,reason}}.
 *
 * <p>{@link #publish} waits for the broker's acknowledgement, so a caller that commits its offset afterwards never
 * loses the record: either it is on the dead-letter topic or publish threw and the offset stays. Thread-safe as
 * long as the producer is (Kafka producers are). Give it a non-transactional producer: the dead-letter write is
 * deliberately outside any Streams transaction, so this topic is at-least-once (a retried task may write a dead
 * letter twice; {@value #TOPIC}/{@value #PARTITION}/{@value #OFFSET} identify duplicates).
 */
public final class DeadLetterPublisher {

    /** Short machine-readable reason: {@link EventDecodingException#reason()} or the exception's class name. */
    public static final String REASON = "gpuaas_dlq_reason";
    /** The exception message, truncated to {@value #MAX_ERROR_CHARS} characters. */
    public static final String ERROR = "gpuaas_dlq_error";
    /** The topic the record was read from. */
    public static final String TOPIC = "gpuaas_dlq_topic";
    /** The partition it was read from (decimal). */
    public static final String PARTITION = "gpuaas_dlq_partition";
    /** Its offset there (decimal). */
    public static final String OFFSET = "gpuaas_dlq_offset";
    /** The consumer group, Streams application id or processor name that gave up on it. */
    public static final String GROUP = "gpuaas_dlq_group";
    /** When it was dead-lettered, ISO-8601 UTC. */
    public static final String TIME = "gpuaas_dlq_time";
    /** The original record's timestamp in epoch milliseconds. */
    public static final String ORIGINAL_TIMESTAMP = "gpuaas_dlq_original_timestamp";

    static final int MAX_ERROR_CHARS = 1000;
    private static final List<String> OWN_HEADERS =
            List.of(REASON, ERROR, TOPIC, PARTITION, OFFSET, GROUP, TIME, ORIGINAL_TIMESTAMP);
    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterPublisher.class);

    private final Producer<byte[], byte[]> producer;
    private final String deadLetterTopic;
    private final String group;
    private final Counter counter;
    private final Clock clock;

    /**
     * @param producer        a byte-array producer (idempotent, {@code acks=all}); not closed by this class
     * @param deadLetterTopic full name of the dead-letter topic, e.g. {@code Topics.DEAD_LETTER.name("gpuaas.")}
     * @param group           consumer group or processor name written to {@value #GROUP}
     * @param registry        where {@code gpuaas_dead_letter_records_total} lives; shared safely by many publishers
     */
    public DeadLetterPublisher(
            Producer<byte[], byte[]> producer, String deadLetterTopic, String group, PrometheusRegistry registry) {
        this(producer, deadLetterTopic, group, registry, Clock.systemUTC());
    }

    DeadLetterPublisher(
            Producer<byte[], byte[]> producer,
            String deadLetterTopic,
            String group,
            PrometheusRegistry registry,
            Clock clock) {
        this.producer = producer;
        this.deadLetterTopic = deadLetterTopic;
        this.group = group;
        this.counter = DeadLetterMetrics.counter(registry);
        this.clock = clock;
    }

    /** The short reason code written for {@code error}. */
    public static String reasonOf(Throwable error) {
        return error instanceof EventDecodingException decoding
                ? decoding.reason()
                : error.getClass().getSimpleName();
    }

    /**
     * Writes {@code original} to the dead-letter topic and waits for the acknowledgement.
     *
     * @return where the dead letter was written
     * @throws KafkaException when the dead-letter topic cannot be written; the caller must not move past the record
     */
    public RecordMetadata publish(ConsumerRecord<byte[], byte[]> original, Throwable error) {
        String reason = reasonOf(error);
        ProducerRecord<byte[], byte[]> letter = new ProducerRecord<>(
                deadLetterTopic, null, original.key(), original.value(), headers(original, error, reason));
        RecordMetadata written = await(letter, original);
        counter.labelValues(original.topic(), reason).inc();
        LOG.warn(
                "dead-lettered {}-{}@{} ({}) for {}: {}",
                original.topic(),
                original.partition(),
                original.offset(),
                reason,
                group,
                truncate(error.getMessage()));
        return written;
    }

    /** The dead-letter topic this publisher writes to. */
    public String deadLetterTopic() {
        return deadLetterTopic;
    }

    private Headers headers(ConsumerRecord<byte[], byte[]> original, Throwable error, String reason) {
        RecordHeaders headers = new RecordHeaders();
        for (Header header : original.headers()) {
            if (!OWN_HEADERS.contains(header.key())) {
                headers.add(header);
            }
        }
        put(headers, REASON, reason);
        put(headers, ERROR, truncate(error.getMessage() == null ? error.toString() : error.getMessage()));
        put(headers, TOPIC, original.topic());
        put(headers, PARTITION, Integer.toString(original.partition()));
        put(headers, OFFSET, Long.toString(original.offset()));
        put(headers, GROUP, group);
        put(headers, TIME, clock.instant().toString());
        put(headers, ORIGINAL_TIMESTAMP, Long.toString(original.timestamp()));
        return headers;
    }

    private RecordMetadata await(ProducerRecord<byte[], byte[]> letter, ConsumerRecord<byte[], byte[]> original) {
        try {
            return producer.send(letter).get();
        } catch (ExecutionException e) {
            throw new KafkaException(
                    "cannot dead-letter " + original.topic() + "-" + original.partition() + "@" + original.offset()
                            + " to " + deadLetterTopic,
                    e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptException(e);
        }
    }

    private static void put(Headers headers, String name, String value) {
        headers.add(name, (value == null ? "" : value).getBytes(StandardCharsets.UTF_8));
    }

    private static String truncate(String message) {
        if (message == null) {
            return "";
        }
        return message.length() <= MAX_ERROR_CHARS ? message : message.substring(0, MAX_ERROR_CHARS - 1) + "…";
    }
}
