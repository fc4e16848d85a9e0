package io.gpuaas.booking.stream;

import io.gpuaas.events.Topics;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.BiConsumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.errors.ErrorHandlerContext;

/**
 * Publishes a command the decision processor could not take to {@code <prefix>dead-letter} with its original key,
 * bytes and headers, plus {@code gpuaas_dlq_*} headers naming where it came from and why. Its producer is outside
 * the Streams transaction, so a dead letter can be written twice after a crash, never lost. The booking feed (a plain
 * consumer of {@code bookings} and {@code booking-events}) uses the same sink for what it cannot read.
 */
public final class DeadLetterSink {

    /** Streams config key under which the sink instance is handed to the exception handlers. */
    public static final String CONFIG_KEY = "gpuaas.booking.dead-letter-sink";

    private static final String GROUP = "booking-service";

    private final Producer<byte[], byte[]> producer;
    private final String topic;
    private final BiConsumer<String, String> counter;

    /**
     * @param counter told (source topic, reason) for every dead letter, for the metric
     */
    public DeadLetterSink(Producer<byte[], byte[]> producer, String prefix, BiConsumer<String, String> counter) {
        this.producer = producer;
        this.topic = Topics.DEAD_LETTER.name(prefix);
        this.counter = counter;
    }

    static DeadLetterSink from(Map<String, ?> configs) {
        Object sink = configs.get(CONFIG_KEY);
        if (!(sink instanceof DeadLetterSink deadLetters)) {
            throw new IllegalStateException("streams config " + CONFIG_KEY + " must hold a DeadLetterSink");
        }
        return deadLetters;
    }

    void publish(ErrorHandlerContext context, String reason, Exception error) {
        Headers headers = letterHeaders(context.headers(), context.topic(), context.partition(), context.offset(),
                reason, error);
        put(headers, "gpuaas_dlq_processor", "booking-service/" + context.processorNodeId());
        send(context.topic(), context.sourceRawKey(), context.sourceRawValue(), headers, reason);
    }

    /** Dead-letters a record a plain consumer could not decode; returns once the send has completed. */
    public void publish(ConsumerRecord<byte[], byte[]> record, String reason, Exception error) {
        send(record.topic(), record.key(), record.value(),
                letterHeaders(record.headers(), record.topic(), record.partition(), record.offset(), reason, error),
                reason);
    }

    private static Headers letterHeaders(Headers original, String sourceTopic, int partition, long offset,
                                         String reason, Exception error) {
        Headers headers = new RecordHeaders(original.toArray());
        put(headers, "gpuaas_dlq_reason", reason);
        put(headers, "gpuaas_dlq_error", String.valueOf(error.getMessage()));
        put(headers, "gpuaas_dlq_topic", sourceTopic);
        put(headers, "gpuaas_dlq_partition", Integer.toString(partition));
        put(headers, "gpuaas_dlq_offset", Long.toString(offset));
        put(headers, "gpuaas_dlq_group", GROUP);
        return headers;
    }

    private void send(String sourceTopic, byte[] key, byte[] value, Headers headers, String reason) {
        producer.send(new ProducerRecord<>(topic, null, key, value, headers));
        producer.flush();
        counter.accept(sourceTopic, reason);
    }

    public void close() {
        producer.close();
    }

    private static void put(Headers headers, String name, String value) {
        headers.remove(name);
        headers.add(name, value.getBytes(StandardCharsets.UTF_8));
    }
}
