package io.gpuaas.kit.runtime;

import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.EventReader;
import io.gpuaas.events.TopicSpec;
import io.gpuaas.kit.runtime.TopicReplica.RecordHandler;
import io.gpuaas.kit.runtime.TopicReplica.StartAt;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * One followed topic: its full name, where a replica starts reading it, how its records are decoded, and the
 * handler they go to. The handler sees a null value only for a delete on a compacted topic; a null on any other topic
 * is dead-lettered by the reader ({@code TOMBSTONE}) and never reaches it.
 */
record ReplicaRoute<T>(
        String topic, StartAt startAt, boolean compacted, EventReader<T> reader, RecordHandler<T> handler) {

    static <T> ReplicaRoute<T> of(
            TopicSpec<String, T> spec,
            String prefix,
            StartAt startAt,
            RecordHandler<T> handler,
            DeadLetterPublisher deadLetters) {
        return new ReplicaRoute<>(
                spec.name(prefix), startAt, spec.compacted(), EventReader.of(spec, deadLetters), handler);
    }

    /**
     * Decodes {@code record}: what the handler must be given, or null when there is nothing to apply (the record
     * was dead-lettered by the reader).
     *
     * @throws org.apache.kafka.common.KafkaException when the dead letter could not be written
     */
    Decoded<T> decode(ConsumerRecord<byte[], byte[]> record) {
        Optional<T> value = reader.read(record);
        boolean delete = compacted && record.value() == null;
        if (value.isEmpty() && !delete) {
            return null;
        }
        return new Decoded<>(reader.key(record), value.orElse(null));
    }

    void apply(Decoded<T> decoded) {
        handler.apply(decoded.key(), decoded.value());
    }

    /** A decoded record: its key and its value, null for a delete. */
    record Decoded<T>(String key, T value) {}
}
