package io.gpuaas.kit.runtime;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.common.TopicPartition;

/**
 * What a replica has applied, kept across consumers: per partition the offset of the first record not yet applied
 * (a new consumer resumes exactly there, so nothing is skipped and nothing applied twice), the end offset each
 * partition must reach before the replica counts as caught up, and the one record whose handler gave up but whose
 * dead letter is not yet written. Only the replica's thread writes it.
 */
final class ReplicaProgress {

    /** A record the handler gave up on: the next consumer dead-letters it without calling the handler again. */
    record GaveUp(TopicPartition partition, long offset, RuntimeException error) {}

    private final Map<TopicPartition, Long> next = new HashMap<>();
    private final Map<TopicPartition, Long> catchUpTo = new HashMap<>();
    private final CountDownLatch caughtUp = new CountDownLatch(1);
    private volatile GaveUp gaveUp;

    /** Partitions whose starting position is known. */
    Set<TopicPartition> known() {
        return next.keySet();
    }

    Long next(TopicPartition partition) {
        return next.get(partition);
    }

    /** A new partition starts at {@code position}; the replica is not caught up before it reaches {@code end}. */
    void begin(TopicPartition partition, long position, long end) {
        next.put(partition, position);
        if (caughtUp.getCount() > 0 && end > position) {
            catchUpTo.put(partition, end);
        }
    }

    void applied(TopicPartition partition, long offset) {
        next.put(partition, offset + 1);
        GaveUp last = gaveUp;
        if (last != null && last.partition().equals(partition) && last.offset() <= offset) {
            gaveUp = null;
        }
    }

    GaveUp gaveUp() {
        return gaveUp;
    }

    void gaveUp(TopicPartition partition, long offset, RuntimeException error) {
        gaveUp = new GaveUp(partition, offset, error);
    }

    /** Partitions still short of their end offset at assignment. */
    Map<TopicPartition, Long> catchingUp() {
        return catchUpTo;
    }

    /** Marks {@code partition} as having reached its target ({@code position} past it). */
    void reached(TopicPartition partition) {
        catchUpTo.remove(partition);
    }

    /** Caught up for good once nothing is missing and every partition reached its target. */
    void checkCaughtUp(boolean topicsMissing) {
        if (!topicsMissing && catchUpTo.isEmpty()) {
            caughtUp.countDown();
        }
    }

    boolean caughtUp() {
        return caughtUp.getCount() == 0;
    }

    CountDownLatch latch() {
        return caughtUp;
    }
}
