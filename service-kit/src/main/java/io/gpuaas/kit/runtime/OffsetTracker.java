package io.gpuaas.kit.runtime;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * How far each partition of a {@link WorkConsumer} is done when records finish out of order. A Kafka offset can only
 * say "everything before me", so the committed offset is the first record not finished, and its metadata lists the
 * records after it that are still open: every other offset below {@code next} is finished, and whoever owns the
 * partition next skips those instead of doing them again.
 *
 * <p>Metadata: {@code v1;next=<offset>;open=<delta>,<delta>...}, deltas from the committed offset. When the list
 * would not fit in {@link #METADATA_BUDGET} characters (brokers refuse more than {@code offset.metadata.max.bytes},
 * 4096 by default), {@code next} is lowered to the first open offset left out: more is redone, nothing skipped.
 *
 * <p>A record's result is handed out by {@link #drain()} only together with a position that covers it, so a
 * committer that publishes results with the offsets (in one transaction) publishes each result exactly when its
 * record counts as done. Thread-safe: the consumer thread opens, assigns, revokes and drains; workers finish.
 *
 * @param <R> what a finished record leaves to commit with it (null: nothing)
 */
public final class OffsetTracker<R> {

    /** Longest commit metadata written; below the broker's default limit of 4096 bytes with room to spare. */
    public static final int METADATA_BUDGET = 3000;

    private static final String VERSION = "v1";

    /** A result of a finished record, with where it came from. */
    public record Finished<R>(TopicPartition partition, long offset, R result) {}

    /** What one commit carries: the positions that moved, and the results of the records they move past. */
    public record Drain<R>(Map<TopicPartition, OffsetAndMetadata> offsets, List<Finished<R>> results) {
        public boolean isEmpty() {
            return offsets.isEmpty() && results.isEmpty();
        }
    }

    /** One partition during one assignment; finishing a record of a revoked one changes nothing. */
    public static final class Partition<R> {
        private final TopicPartition topicPartition;
        private final TreeSet<Long> open = new TreeSet<>();
        private final TreeMap<Long, R> results = new TreeMap<>();
        /** Offsets the previous owner had not finished, below {@link #previousNext}; all others below it it had. */
        private final Set<Long> previousOpen;

        private final long previousNext;
        /** One past the highest offset read (or the committed offset before any is read); -1 when none is known. */
        private long next;

        private OffsetAndMetadata drained;
        private boolean revoked;

        private Partition(TopicPartition topicPartition, long next, Set<Long> previousOpen, long previousNext) {
            this.topicPartition = topicPartition;
            this.next = next;
            this.previousOpen = previousOpen;
            this.previousNext = previousNext;
        }

        public TopicPartition topicPartition() {
            return topicPartition;
        }
    }

    private final Map<TopicPartition, Partition<R>> partitions = new HashMap<>();
    private int open;

    /** {@code tp} was assigned; {@code committed} is its committed offset and metadata, null when none. */
    public synchronized Partition<R> assigned(TopicPartition tp, OffsetAndMetadata committed) {
        Partition<R> partition = resume(tp, committed);
        Partition<R> previous = partitions.put(tp, partition);
        if (previous != null) {
            forget(previous);
        }
        return partition;
    }

    /** The partition held now, or null when {@code tp} is not assigned. */
    public synchronized Partition<R> held(TopicPartition tp) {
        return partitions.get(tp);
    }

    /**
     * The record at {@code offset} was read. Returns false when it needs no work: the previous owner finished it
     * (it counts as finished here too) or the partition is no longer held; true when it is now open.
     */
    public synchronized boolean open(Partition<R> p, long offset) {
        if (p.revoked) {
            return false;
        }
        p.next = Math.max(p.next, offset + 1);
        if (offset < p.previousNext && !p.previousOpen.contains(offset)) {
            return false;
        }
        if (p.open.add(offset)) {
            open++;
        }
        return true;
    }

    /** The record at {@code offset} is done; {@code result} (may be null) is committed with the offset past it. */
    public synchronized void finished(Partition<R> p, long offset, R result) {
        if (p.revoked || !p.open.remove(offset)) {
            return;
        }
        open--;
        if (result != null) {
            p.results.put(offset, result);
        }
        notifyAll();
    }

    /** Positions that moved since the last drain, with the results they cover; forgets what it hands out. */
    public synchronized Drain<R> drain() {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        List<Finished<R>> results = new ArrayList<>();
        for (Partition<R> p : partitions.values()) {
            Position position = position(p);
            if (position == null) {
                continue;
            }
            SortedMap<Long, R> covered = p.results.headMap(position.covers());
            covered.forEach((offset, result) -> results.add(new Finished<>(p.topicPartition, offset, result)));
            covered.clear();
            if (!position.offset().equals(p.drained)) {
                offsets.put(p.topicPartition, position.offset());
                p.drained = position.offset();
            }
        }
        return new Drain<>(offsets, results);
    }

    /** {@code revoked} were taken away: their open records and results are forgotten (the next owner redoes them). */
    public synchronized void revoke(Collection<TopicPartition> revoked) {
        for (TopicPartition tp : revoked) {
            Partition<R> p = partitions.remove(tp);
            if (p != null) {
                forget(p);
            }
        }
        notifyAll();
    }

    /** Forgets every partition (the consumer is being replaced). */
    public synchronized void clear() {
        revoke(new ArrayList<>(partitions.keySet()));
    }

    /** Held partitions with {@code max} open records or more: read no further there until some finish. */
    public synchronized Set<TopicPartition> crowded(int max) {
        Set<TopicPartition> crowded = new HashSet<>();
        partitions.forEach((tp, p) -> {
            if (p.open.size() >= max) {
                crowded.add(tp);
            }
        });
        return crowded;
    }

    /** Records read and not finished, over every held partition. */
    public synchronized int open() {
        return open;
    }

    /** Waits until no record is open, at most {@code timeoutNanos}; whether none is. */
    public synchronized boolean awaitNoneOpen(long timeoutNanos) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutNanos;
        for (long left = timeoutNanos; open > 0 && left > 0; left = deadline - System.nanoTime()) {
            wait(Math.max(1, left / 1_000_000));
        }
        return open == 0;
    }

    private void forget(Partition<R> p) {
        p.revoked = true;
        open -= p.open.size();
        p.open.clear();
        p.results.clear();
    }

    /** What to commit and the first offset whose result it does not cover; null when nothing is known yet. */
    private record Position(OffsetAndMetadata offset, long covers) {}

    private static Position position(Partition<?> p) {
        if (p.next < 0) {
            return null;
        }
        long end = Math.max(p.next, p.previousNext);
        // What the previous owner left open and this one has not read yet is still to do.
        TreeSet<Long> unfinished = new TreeSet<>(p.open);
        p.previousOpen.stream().filter(offset -> offset >= p.next).forEach(unfinished::add);
        if (unfinished.isEmpty()) {
            return new Position(new OffsetAndMetadata(end, ""), end);
        }
        long base = unfinished.first();
        StringJoiner deltas = new StringJoiner(",");
        for (long offset : unfinished) {
            String delta = Long.toString(offset - base);
            if (VERSION.length() + 32 + deltas.length() + delta.length() > METADATA_BUDGET) {
                // The rest does not fit: claim no further than this open offset.
                end = offset;
                break;
            }
            deltas.add(delta);
        }
        return new Position(new OffsetAndMetadata(base, VERSION + ";next=" + end + ";open=" + deltas), end);
    }

    private static <R> Partition<R> resume(TopicPartition tp, OffsetAndMetadata committed) {
        if (committed == null) {
            return new Partition<>(tp, -1, Set.of(), -1);
        }
        long base = committed.offset();
        String metadata = committed.metadata();
        if (metadata == null || !metadata.startsWith(VERSION + ";")) {
            return new Partition<>(tp, base, Set.of(), base);
        }
        long previousNext = base;
        Set<Long> previousOpen = new HashSet<>();
        try {
            for (String part : metadata.substring(VERSION.length() + 1).split(";")) {
                if (part.startsWith("next=")) {
                    previousNext = Long.parseLong(part.substring(5));
                } else if (part.startsWith("open=") && part.length() > 5) {
                    for (String delta : part.substring(5).split(",")) {
                        previousOpen.add(base + Long.parseLong(delta));
                    }
                }
            }
        } catch (NumberFormatException e) {
            // Unreadable metadata claims nothing: redo everything from the committed offset.
            return new Partition<>(tp, base, Set.of(), base);
        }
        return new Partition<>(tp, base, previousOpen, previousNext);
    }
}
