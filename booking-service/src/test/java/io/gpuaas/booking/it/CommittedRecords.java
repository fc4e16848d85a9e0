package io.gpuaas.booking.it;

import io.gpuaas.events.TopicSpec;
import io.gpuaas.testing.kafka.KafkaBroker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Every committed record of one topic from its beginning, as a consumer with {@code read_committed} sees it (an aborted
 * transaction's records never show), decoded with the topic's serde. Keeps its consumer open: {@link #poll} adds what
 * arrived since the last call.
 */
final class CommittedRecords<V> implements AutoCloseable {

    private final KafkaConsumer<String, V> consumer;
    private final List<ConsumerRecord<String, V>> seen = new ArrayList<>();

    CommittedRecords(KafkaBroker broker, TopicSpec<String, V> topic, String prefix) {
        var config = broker.clientProperties();
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        consumer = new KafkaConsumer<>(
                config, new StringDeserializer(), topic.valueSerde().deserializer());
        String name = topic.name(prefix);
        List<TopicPartition> partitions = consumer.partitionsFor(name, Duration.ofSeconds(10)).stream()
                .map(p -> new TopicPartition(name, p.partition()))
                .toList();
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
    }

    /** Everything read so far, after one more poll. */
    synchronized List<ConsumerRecord<String, V>> poll() {
        consumer.poll(Duration.ofMillis(200)).forEach(seen::add);
        return List.copyOf(seen);
    }

    /** The values read so far whose key is {@code key}, after one more poll. */
    List<V> values(String key) {
        return poll().stream()
                .filter(r -> key.equals(r.key()))
                .map(ConsumerRecord::value)
                .toList();
    }

    @Override
    public synchronized void close() {
        consumer.close();
    }
}
