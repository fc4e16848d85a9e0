package io.gpuaas.reclaim.it;

import io.gpuaas.events.TopicSpec;
import io.gpuaas.testing.kafka.KafkaBroker;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Everything committed on a topic, from the beginning, as a read_committed consumer (the super user) sees it. */
final class TopicTail<T> implements AutoCloseable {

    private final List<T> records = new CopyOnWriteArrayList<>();
    private final Thread reader;
    private volatile boolean reading = true;

    TopicTail(KafkaBroker broker, TopicSpec<String, T> topic, String prefix) {
        reader = Thread.ofVirtual().start(() -> read(broker, topic, prefix));
    }

    /** The values read so far, in the order they arrived. */
    List<T> records() {
        return records;
    }

    private void read(KafkaBroker broker, TopicSpec<String, T> topic, String prefix) {
        Map<String, Object> config = broker.clientProperties();
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        try (var consumer = new KafkaConsumer<>(
                config, new StringDeserializer(), topic.valueSerde().deserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic.name(prefix)).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            while (reading) {
                consumer.poll(Duration.ofMillis(100)).forEach(r -> records.add(r.value()));
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        reading = false;
        reader.join(5_000);
    }
}
