package io.gpuaas.quota.kafka;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * Reads a whole topic without a consumer group: every replica needs every partition (the bookings for any
 * tenant, the last record of any Workload), and a group would split them.
 */
final class TopicReplay {

    private TopicReplay() {
    }

    /** Assigns every partition of {@code topic} from the beginning; returns the end offsets as of now. */
    static Map<TopicPartition, Long> fromBeginning(Consumer<byte[], byte[]> consumer, String topic, Duration timeout) {
        List<TopicPartition> partitions = consumer.partitionsFor(topic, timeout).stream()
                .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
        if (partitions.isEmpty()) {
            throw new IllegalStateException("topic " + topic + " has no partitions (does it exist?)");
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        return consumer.endOffsets(partitions, timeout);
    }

    static boolean caughtUp(Consumer<byte[], byte[]> consumer, Map<TopicPartition, Long> end) {
        return end.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue());
    }

    /** Reads until {@code end}, handing every record to {@code sink}. */
    static void readTo(Consumer<byte[], byte[]> consumer, Map<TopicPartition, Long> end, Duration timeout,
                       java.util.function.Consumer<ConsumerRecord<byte[], byte[]>> sink) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!caughtUp(consumer, end)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("could not read " + end.keySet() + " to its end within " + timeout);
            }
            consumer.poll(Duration.ofMillis(200)).forEach(sink);
        }
    }
}
