package io.gpuaas.kit.runtime;

import io.gpuaas.events.TopicSpec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/**
 * A topic's partitions as an in-memory log that every consumer from {@link #consumers()} reads, like a broker
 * would: each new consumer sees the whole log, end offsets follow appends, and a failure can be injected into the
 * next poll of the current consumer.
 */
final class FakeLog {

    /** A test topic of integers: anything else in a value is undecodable. */
    static TopicSpec<String, Integer> topic(String name, int partitions, boolean compacted) {
        Deserializer<Integer> strict = (topic, data) -> Integer.valueOf(new String(data, StandardCharsets.UTF_8));
        Serde<Integer> values = Serdes.serdeFrom((t, v) -> String.valueOf(v).getBytes(StandardCharsets.UTF_8), strict);
        return new TopicSpec<>(
                name,
                String.class,
                Serdes.String(),
                Integer.class,
                values,
                partitions,
                compacted,
                compacted ? null : Duration.ofDays(1));
    }

    private final String topic;
    private final Map<Integer, List<String[]>> partitions = new HashMap<>();
    private final AtomicInteger created = new AtomicInteger();
    private final List<LogConsumer> consumers = new CopyOnWriteArrayList<>();
    private volatile boolean exists = true;

    FakeLog(String topic, int partitions) {
        this.topic = topic;
        IntStream.range(0, partitions).forEach(p -> this.partitions.put(p, new CopyOnWriteArrayList<>()));
    }

    FakeLog missing() {
        exists = false;
        return this;
    }

    void create() {
        exists = true;
    }

    /** Appends a record (value null for a tombstone); returns its offset. */
    long append(int partition, String key, String value) {
        List<String[]> log = partitions.get(partition);
        synchronized (log) {
            log.add(new String[] {key, value});
            return log.size() - 1;
        }
    }

    /** Makes the current consumer's next poll throw {@code failure}. */
    void failNextPoll(KafkaException failure) {
        consumers.getLast().setPollException(failure);
    }

    /** Makes the current consumer's next offset lookup throw {@code failure} (a broker that stopped answering). */
    void failNextOffsetLookup(KafkaException failure) {
        consumers.getLast().setOffsetsException(failure);
    }

    int consumersCreated() {
        return created.get();
    }

    Supplier<Consumer<byte[], byte[]>> consumers() {
        return () -> {
            created.incrementAndGet();
            LogConsumer consumer = new LogConsumer();
            consumers.add(consumer);
            return consumer;
        };
    }

    private final class LogConsumer extends MockConsumer<byte[], byte[]> {
        private final Map<TopicPartition, Integer> delivered = new HashMap<>();

        LogConsumer() {
            super("earliest");
        }

        @Override
        public synchronized List<PartitionInfo> partitionsFor(String name, Duration timeout) {
            if (!exists || !name.equals(topic)) {
                return List.of();
            }
            return partitions.keySet().stream()
                    .map(p -> new PartitionInfo(topic, p, null, null, null))
                    .toList();
        }

        @Override
        public synchronized void assign(Collection<TopicPartition> assigned) {
            super.assign(assigned);
            Map<TopicPartition, Long> zero = new HashMap<>();
            assigned.forEach(tp -> zero.put(tp, 0L));
            updateBeginningOffsets(zero);
            updateEndOffsets(ends(assigned));
        }

        @Override
        public synchronized Map<TopicPartition, Long> endOffsets(Collection<TopicPartition> asked, Duration timeout) {
            updateEndOffsets(ends(asked));
            return super.endOffsets(asked);
        }

        @Override
        public synchronized ConsumerRecords<byte[], byte[]> poll(Duration timeout) {
            for (TopicPartition tp : assignment()) {
                List<String[]> log = partitions.get(tp.partition());
                int from = delivered.getOrDefault(tp, 0);
                for (int offset = from; offset < log.size(); offset++) {
                    String[] record = log.get(offset);
                    addRecord(new ConsumerRecord<>(topic, tp.partition(), offset, bytes(record[0]), bytes(record[1])));
                }
                delivered.put(tp, log.size());
            }
            ConsumerRecords<byte[], byte[]> records = super.poll(timeout);
            if (records.isEmpty()) {
                pauseBriefly();
            }
            return records;
        }

        private Map<TopicPartition, Long> ends(Collection<TopicPartition> asked) {
            Map<TopicPartition, Long> ends = new HashMap<>();
            asked.forEach(
                    tp -> ends.put(tp, (long) partitions.get(tp.partition()).size()));
            return ends;
        }
    }

    private static void pauseBriefly() {
        try {
            Thread.sleep(2);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static byte[] bytes(String text) {
        return text == null ? null : text.getBytes(StandardCharsets.UTF_8);
    }
}
