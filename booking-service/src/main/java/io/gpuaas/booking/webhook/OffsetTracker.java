package io.gpuaas.booking.webhook;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.TopicPartition;

/**
 * Which notice offsets may be committed: a record's offset is done once every delivery it started has ended
 * (delivered, dead-lettered or dropped). The committable offset of a partition is its lowest unfinished record, or
 * one past the last record read when none is unfinished, so a restart re-reads every record whose deliveries had not
 * all ended (at-least-once; receivers drop the copies by {@code webhook-id}). Thread-safe: the consumer thread adds,
 * delivery threads finish.
 */
final class OffsetTracker {

    /** The records of one partition in one assignment; finishing on a revoked one changes nothing. */
    static final class Partition {
        private final TreeMap<Long, Integer> open = new TreeMap<>();
        private long next = -1;
        private long committed = -1;
        private boolean revoked;
    }

    private final Map<TopicPartition, Partition> partitions = new HashMap<>();
    private int pending;

    /** Records that {@code offset} of {@code tp} started {@code deliveries} deliveries; returns its partition. */
    synchronized Partition read(TopicPartition tp, long offset, int deliveries) {
        Partition p = partitions.computeIfAbsent(tp, k -> new Partition());
        p.next = Math.max(p.next, offset + 1);
        if (deliveries > 0) {
            p.open.merge(offset, deliveries, Integer::sum);
            pending += deliveries;
        }
        return p;
    }

    /** One delivery of {@code offset} ended. */
    synchronized void finished(Partition p, long offset) {
        if (p.revoked) {
            return;
        }
        Integer left = p.open.get(offset);
        if (left == null) {
            return;
        }
        pending--;
        if (left <= 1) {
            p.open.remove(offset);
        } else {
            p.open.put(offset, left - 1);
        }
    }

    /** Offsets to commit now (only those that moved since the last call). */
    synchronized Map<TopicPartition, Long> committable() {
        Map<TopicPartition, Long> out = new HashMap<>();
        partitions.forEach((tp, p) -> {
            long at = p.open.isEmpty() ? p.next : p.open.firstKey();
            if (at > p.committed && at >= 0) {
                out.put(tp, at);
            }
        });
        return out;
    }

    /** The commit of {@code offsets} succeeded. */
    synchronized void committed(Map<TopicPartition, Long> offsets) {
        offsets.forEach((tp, at) -> {
            Partition p = partitions.get(tp);
            if (p != null) {
                p.committed = Math.max(p.committed, at);
            }
        });
    }

    /** {@code tp} was taken away: its open deliveries no longer count (they may still complete, harmlessly). */
    synchronized void revoke(TopicPartition tp) {
        Partition p = partitions.remove(tp);
        if (p != null) {
            p.revoked = true;
            p.open.values().forEach(n -> pending -= n);
            p.open.clear();
        }
    }

    /** Deliveries started and not yet ended, over every partition held. */
    synchronized int pending() {
        return pending;
    }
}
