package io.gpuaas.reclaim.apply;

import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.events.reclaim.ReclaimIntent;
import io.gpuaas.events.reclaim.ReclaimIntent.ReclaimRequested;
import io.gpuaas.events.reclaim.ReclaimIntent.ReclaimWithdrawn;
import io.gpuaas.events.reclaim.WorkloadRef;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The reclaim intents this instance has read and not finished, and the outcomes and offsets to commit for those it
 * has. Shared by the intake thread (reads, drains, rebalances) and the applier's workers (take, report, finish):
 * per workload the intents are applied in the order read, per partition an offset is committed with the outcomes
 * of everything before it ({@link PartitionProgress}). Everything of a partition this instance no longer owns is
 * forgotten, and an outcome finished for it afterwards is dropped: the new owner applies it again, which finds the
 * window id on the object and writes nothing.
 */
public final class PendingIntents {

    /** Open intents per partition before it is paused: bounds memory and the commit metadata. */
    static final int MAX_OPEN = 100;
    /** Workloads whose last finished window is remembered, to drop an intent delivered twice. */
    private static final int FINISHED_REMEMBERED = 10_000;

    /** One requested reclaim being worked on; identity matters (see {@link #finish}). */
    public static final class Entry {
        private final ReclaimRequested intent;
        private final TopicPartition partition;
        private final long offset;
        private boolean inFlight;
        private boolean withdrawn;
        private boolean holdsToken;
        private boolean rateLimitReported;
        private boolean failureReported;
        private int failures;

        private Entry(ReclaimRequested intent, TopicPartition partition, long offset) {
            this.intent = intent;
            this.partition = partition;
            this.offset = offset;
        }

        public ReclaimRequested intent() {
            return intent;
        }

        /** The workload was busy again before this was applied. */
        public boolean withdrawn() {
            return withdrawn;
        }

        /** It already took a slot of the rate limiter (a retry does not take another). */
        public boolean holdsToken() {
            return holdsToken;
        }

        void tookToken() {
            holdsToken = true;
        }

        public boolean rateLimitReported() {
            return rateLimitReported;
        }

        public boolean failureReported() {
            return failureReported;
        }

        /** Counts a failed attempt; returns how many there were. */
        int failed() {
            return ++failures;
        }
    }

    /** What one transaction publishes and commits. */
    public record Batch(List<ReclaimEvent> events, Map<TopicPartition, OffsetAndMetadata> offsets) {
        public boolean isEmpty() {
            return events.isEmpty() && offsets.isEmpty();
        }
    }

    private final Map<WorkloadRef, Deque<Entry>> byWorkload = new HashMap<>();
    private final Map<TopicPartition, PartitionProgress> partitions = new HashMap<>();
    private final Map<TopicPartition, List<ReclaimEvent>> outbox = new LinkedHashMap<>();
    private final Map<TopicPartition, OffsetAndMetadata> drained = new HashMap<>();
    private final Map<WorkloadRef, String> finishedWindows = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<WorkloadRef, String> eldest) {
            return size() > FINISHED_REMEMBERED;
        }
    };

    /** A partition was assigned; {@code committed} is its committed offset and metadata, null when none. */
    public synchronized void assigned(TopicPartition partition, OffsetAndMetadata committed) {
        partitions.put(partition, PartitionProgress.resume(committed));
    }

    /** Partitions were revoked or lost: their intents, progress and unpublished outcomes are forgotten. */
    public synchronized void revoked(Collection<TopicPartition> revoked) {
        for (TopicPartition partition : revoked) {
            partitions.remove(partition);
            outbox.remove(partition);
            drained.remove(partition);
        }
        byWorkload.values().forEach(queue -> queue.removeIf(e -> revoked.contains(e.partition)));
        byWorkload.values().removeIf(Deque::isEmpty);
    }

    /** Forgets everything (the consumer and producer are being replaced). */
    public synchronized void clear() {
        partitions.clear();
        outbox.clear();
        drained.clear();
        byWorkload.clear();
    }

    /**
     * Takes in one record read from the topic.
     *
     * @param intent the decoded intent, null when the record was unreadable (and dead-lettered)
     * @return whether the workload has something new for the applier
     */
    public synchronized boolean read(TopicPartition partition, long offset, ReclaimIntent intent) {
        PartitionProgress progress = partitions.get(partition);
        if (progress == null) {
            return false;
        }
        if (intent == null || progress.finishedBefore(offset)) {
            progress.finished(offset);
            return false;
        }
        return switch (intent) {
            case ReclaimRequested requested -> request(progress, partition, offset, requested);
            case ReclaimWithdrawn withdrawn -> {
                progress.finished(offset);
                yield withdraw(withdrawn);
            }
        };
    }

    private boolean request(
            PartitionProgress progress, TopicPartition partition, long offset, ReclaimRequested intent) {
        Deque<Entry> queue = byWorkload.computeIfAbsent(intent.workload(), w -> new ArrayDeque<>());
        boolean duplicate = intent.windowId().equals(finishedWindows.get(intent.workload()))
                || queue.stream().anyMatch(e -> e.intent.windowId().equals(intent.windowId()));
        if (duplicate) {
            // The same window delivered twice (a replay): one outcome for it is enough.
            progress.finished(offset);
            return false;
        }
        queue.addLast(new Entry(intent, partition, offset));
        progress.opened(offset);
        return true;
    }

    private boolean withdraw(ReclaimWithdrawn withdrawal) {
        Deque<Entry> queue = byWorkload.get(withdrawal.workload());
        if (queue == null) {
            return false;
        }
        for (Entry e : queue) {
            if (!e.inFlight && e.intent.windowId().equals(withdrawal.windowId())) {
                e.withdrawn = true;
                return true;
            }
        }
        return false;
    }

    /** The oldest open intent of {@code workload}, now in flight; null when there is none to work on. */
    public synchronized Entry take(WorkloadRef workload) {
        Deque<Entry> queue = byWorkload.get(workload);
        Entry head = queue == null ? null : queue.peekFirst();
        if (head == null || head.inFlight) {
            return null;
        }
        head.inFlight = true;
        return head;
    }

    /** Publishes that an intent waits for the rate limit; it stays open. */
    public synchronized void reportRateLimited(Entry entry, ReclaimEvent.ReclaimSkipped event) {
        if (owned(entry)) {
            outbox.computeIfAbsent(entry.partition, p -> new ArrayList<>()).add(event);
            entry.rateLimitReported = true;
        }
    }

    /** Publishes that an attempt failed; the intent stays open and is tried again. */
    public synchronized void reportFailure(Entry entry, ReclaimEvent.ReclaimFailed event) {
        if (owned(entry)) {
            outbox.computeIfAbsent(entry.partition, p -> new ArrayList<>()).add(event);
            entry.failureReported = true;
        }
    }

    /** The intent stays open and is tried again later. */
    public synchronized void release(Entry entry) {
        entry.inFlight = false;
    }

    /**
     * The intent is done; {@code outcome} is published with the commit that moves past it.
     *
     * @return false when this instance no longer owns its partition (nothing will be published)
     */
    public synchronized boolean finish(Entry entry, ReclaimEvent outcome) {
        entry.inFlight = false;
        Deque<Entry> queue = byWorkload.get(entry.intent.workload());
        if (queue == null || !queue.remove(entry) || !partitions.containsKey(entry.partition)) {
            return false;
        }
        if (queue.isEmpty()) {
            byWorkload.remove(entry.intent.workload());
        }
        outbox.computeIfAbsent(entry.partition, p -> new ArrayList<>()).add(outcome);
        partitions.get(entry.partition).finished(entry.offset);
        finishedWindows.put(entry.intent.workload(), entry.intent.windowId());
        return true;
    }

    /** Whether {@code workload} has an open intent. */
    public synchronized boolean hasWork(WorkloadRef workload) {
        return byWorkload.containsKey(workload);
    }

    /**
     * The outcomes to publish and the partitions whose position moved since the last drain; empties the outbox.
     * A batch whose transaction fails is not retried: the intake starts over from the committed offsets.
     */
    public synchronized Batch drain() {
        List<ReclaimEvent> events = new ArrayList<>();
        outbox.values().forEach(events::addAll);
        outbox.clear();
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        partitions.forEach((partition, progress) -> {
            OffsetAndMetadata position = progress.position();
            if (position != null && !position.equals(drained.get(partition))) {
                offsets.put(partition, position);
                drained.put(partition, position);
            }
        });
        return new Batch(events, offsets);
    }

    /** Partitions with {@link #MAX_OPEN} open intents or more: read no further until some finish. */
    public synchronized Set<TopicPartition> crowded() {
        return partitions.entrySet().stream()
                .filter(e -> e.getValue().openCount() >= MAX_OPEN)
                .map(Map.Entry::getKey)
                .collect(Collectors.toSet());
    }

    /** Workloads with an open intent (the loop's resync). */
    public synchronized List<WorkloadRef> workloads() {
        return List.copyOf(byWorkload.keySet());
    }

    /** Intents read and not finished. */
    public synchronized int open() {
        return byWorkload.values().stream().mapToInt(Deque::size).sum();
    }

    /** Intents a worker is applying now. */
    public synchronized int inFlight() {
        return (int) byWorkload.values().stream()
                .flatMap(Deque::stream)
                .filter(e -> e.inFlight)
                .count();
    }

    private boolean owned(Entry entry) {
        Deque<Entry> queue = byWorkload.get(entry.intent.workload());
        return queue != null && queue.contains(entry) && partitions.containsKey(entry.partition);
    }
}
