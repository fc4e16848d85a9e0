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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.TopicPartition;

/**
 * The reclaim intents this instance has read and not finished, and the reports to publish meanwhile. Shared by the
 * intake's consumer thread (reads, drains, rebalances) and the applier's workers (take, report, finish): per workload
 * the intents are applied in the order read. Finishing an intent completes the stage the intake handed to
 * service-kit's work consumer, whose offset tracker commits it, with its outcome, once everything before it is done.
 * Everything of a partition this instance no longer owns is forgotten, and an outcome finished for it afterwards is
 * dropped: the new owner applies it again, which finds the window id on the object and writes nothing. Outcomes and
 * reports carry one sequence, so a transaction publishes them in the order they happened.
 */
public final class PendingIntents {

    /** Open intents per partition before the intake pauses it: bounds memory and the commit metadata. */
    static final int MAX_OPEN = 100;
    /** Workloads whose last finished window is remembered, to drop an intent delivered twice. */
    private static final int FINISHED_REMEMBERED = 10_000;

    /** One requested reclaim being worked on; identity matters (see {@link #finish}). */
    public static final class Entry {
        private final ReclaimRequested intent;
        private final TopicPartition partition;
        private final CompletableFuture<Sequenced> done = new CompletableFuture<>();
        private boolean inFlight;
        private boolean withdrawn;
        private boolean holdsToken;
        private boolean rateLimitReported;
        private boolean failureReported;
        private int failures;

        private Entry(ReclaimRequested intent, TopicPartition partition) {
            this.intent = intent;
            this.partition = partition;
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

    /** An event to publish, numbered in the order it happened. */
    public record Sequenced(long sequence, ReclaimEvent event) {}

    /**
     * What reading one record gave.
     *
     * @param done completes (with the outcome, or null when there is nothing to publish) when the record is done
     * @param wake whether the workload has something new for the applier
     */
    public record Read(CompletionStage<Sequenced> done, boolean wake) {}

    private static final Read NOTHING = new Read(CompletableFuture.completedFuture(null), false);

    private final Map<WorkloadRef, Deque<Entry>> byWorkload = new HashMap<>();
    private final Map<TopicPartition, List<Sequenced>> outbox = new LinkedHashMap<>();
    private long sequence;
    /** A window this instance finished, and the partition its intent was read from. */
    private record Finished(String windowId, TopicPartition partition) {}

    private final Map<WorkloadRef, Finished> finishedWindows = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<WorkloadRef, Finished> eldest) {
            return size() > FINISHED_REMEMBERED;
        }
    };

    /**
     * Partitions were revoked or lost, or the consumer's session ended: their intents, unpublished reports and
     * finished windows are forgotten. A window finished here may not have been committed (the session ends when a
     * transaction fails); when its intent is read again from the committed offset, it must be applied again (which
     * writes nothing) so that its outcome is published, not taken for a duplicate.
     */
    public synchronized void revoked(Collection<TopicPartition> revoked) {
        for (TopicPartition partition : revoked) {
            outbox.remove(partition);
        }
        finishedWindows.values().removeIf(f -> revoked.contains(f.partition()));
        byWorkload.values().forEach(queue -> queue.removeIf(e -> revoked.contains(e.partition)));
        byWorkload.values().removeIf(Deque::isEmpty);
    }

    /** Takes in one intent read from {@code partition}. */
    public synchronized Read read(TopicPartition partition, ReclaimIntent intent) {
        return switch (intent) {
            case ReclaimRequested requested -> request(partition, requested);
            case ReclaimWithdrawn withdrawn -> new Read(CompletableFuture.completedFuture(null), withdraw(withdrawn));
        };
    }

    private Read request(TopicPartition partition, ReclaimRequested intent) {
        Deque<Entry> queue = byWorkload.get(intent.workload());
        Finished finished = finishedWindows.get(intent.workload());
        boolean duplicate = (finished != null && finished.windowId().equals(intent.windowId()))
                || (queue != null
                        && queue.stream().anyMatch(e -> e.intent.windowId().equals(intent.windowId())));
        if (duplicate) {
            // The same window delivered twice (a replay): one outcome for it is enough.
            return NOTHING;
        }
        Entry entry = new Entry(intent, partition);
        byWorkload.computeIfAbsent(intent.workload(), w -> new ArrayDeque<>()).addLast(entry);
        return new Read(entry.done, true);
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
            outbox.computeIfAbsent(entry.partition, p -> new ArrayList<>()).add(new Sequenced(++sequence, event));
            entry.rateLimitReported = true;
        }
    }

    /** Publishes that an attempt failed; the intent stays open and is tried again. */
    public synchronized void reportFailure(Entry entry, ReclaimEvent.ReclaimFailed event) {
        if (owned(entry)) {
            outbox.computeIfAbsent(entry.partition, p -> new ArrayList<>()).add(new Sequenced(++sequence, event));
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
    public boolean finish(Entry entry, ReclaimEvent outcome) {
        Sequenced done;
        synchronized (this) {
            entry.inFlight = false;
            Deque<Entry> queue = byWorkload.get(entry.intent.workload());
            if (queue == null || !queue.remove(entry)) {
                return false;
            }
            if (queue.isEmpty()) {
                byWorkload.remove(entry.intent.workload());
            }
            finishedWindows.put(entry.intent.workload(), new Finished(entry.intent.windowId(), entry.partition));
            done = new Sequenced(++sequence, outcome);
        }
        // Outside the lock: completing hands the offset to the intake's tracker.
        entry.done.complete(done);
        return true;
    }

    /** Whether {@code workload} has an open intent. */
    public synchronized boolean hasWork(WorkloadRef workload) {
        return byWorkload.containsKey(workload);
    }

    /**
     * The reports (rate limited, failed attempt) to publish now; empties the outbox. Reports whose transaction
     * fails are not retried: the intake starts over from the committed offsets and reports again.
     */
    public synchronized List<Sequenced> drainReports() {
        List<Sequenced> reports = new ArrayList<>();
        outbox.values().forEach(reports::addAll);
        outbox.clear();
        return reports;
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
        return queue != null && queue.contains(entry);
    }
}
