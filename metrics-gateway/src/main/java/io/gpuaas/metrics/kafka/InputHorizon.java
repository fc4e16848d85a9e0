package io.gpuaas.metrics.kafka;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * From when the ledger's inputs are whole (metrics-gateway DESIGN.md, "Sealed days, cut, BASE + DELTA"): for every
 * partition whose log no longer starts at offset 0, the event time of the first record it still holds, the latest of
 * those over all partitions and inputs. Per partition, because the earliest record of a whole topic may sit on a
 * partition that lost nothing while another lost its first hours.
 */
public final class InputHorizon {

    private static final Duration POLL = Duration.ofMillis(100);

    private InputHorizon() {}

    /**
     * @param consumer a consumer of no group, used here alone (it is assigned and sought)
     * @param timeOf   topic to the event time of one of its records, null for a record it cannot read (the next one
     *                 counts, as the ledger's feed skips it too)
     * @return the horizon, null when no partition lost a record (or a truncated one now holds none: what it lost is
     *     older than its retention)
     * @throws IllegalStateException when the first records could not be read within {@code timeout}
     */
    public static Instant read(
            Consumer<byte[], byte[]> consumer,
            Map<String, Function<ConsumerRecord<byte[], byte[]>, Instant>> timeOf,
            Duration timeout) {
        Map<TopicPartition, Long> pending = new HashMap<>();
        for (String topic : timeOf.keySet()) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, timeout).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition()))
                    .toList();
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, timeout);
            consumer.beginningOffsets(partitions, timeout).forEach((partition, begin) -> {
                if (begin > 0 && ends.get(partition) > begin) {
                    pending.put(partition, ends.get(partition));
                }
            });
        }
        if (pending.isEmpty()) {
            return null;
        }
        consumer.assign(pending.keySet());
        consumer.seekToBeginning(pending.keySet());
        Instant horizon = null;
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!pending.isEmpty()) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("first records not read in " + timeout + ": " + pending.keySet());
            }
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                TopicPartition partition = new TopicPartition(record.topic(), record.partition());
                Instant time = pending.containsKey(partition)
                        ? timeOf.get(record.topic()).apply(record)
                        : null;
                if (time != null) {
                    pending.remove(partition);
                    horizon = horizon == null || time.isAfter(horizon) ? time : horizon;
                }
            }
            pending.entrySet().removeIf(e -> consumer.position(e.getKey()) >= e.getValue()); // nothing readable
            consumer.pause(consumer.assignment().stream()
                    .filter(p -> !pending.containsKey(p))
                    .toList());
        }
        return horizon;
    }
}
