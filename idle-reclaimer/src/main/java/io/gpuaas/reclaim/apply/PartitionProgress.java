package io.gpuaas.reclaim.apply;

import java.util.HashSet;
import java.util.Set;
import java.util.StringJoiner;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;

/**
 * How far one partition of {@code reclaim-intents} is done. Intents of different workloads finish out of order (one
 * waits on a slow update, the next is applied at once), but a Kafka offset can only say "everything before me".
 * So the committed offset is the first intent not finished, and its metadata lists the intents after it that are
 * still open: every other offset below {@code next} is finished, and whoever owns the partition next skips it
 * instead of publishing its outcome a second time.
 *
 * <p>Metadata: {@code v1;next=<offset>;open=<delta>,<delta>...}, deltas from the committed offset. Its size is
 * bounded because a partition is paused once {@link PendingIntents#MAX_OPEN} intents of it are open.
 */
final class PartitionProgress {

    private static final String VERSION = "v1";

    private final TreeSet<Long> open = new TreeSet<>();
    /** Offsets the previous owner had not finished, below {@link #previousNext}; all others below it it had. */
    private final Set<Long> previousOpen;

    private final long previousNext;
    /** One past the highest offset read (or the committed offset before any is read); -1 when nothing is known. */
    private long next;

    private PartitionProgress(long next, Set<Long> previousOpen, long previousNext) {
        this.next = next;
        this.previousOpen = previousOpen;
        this.previousNext = previousNext;
    }

    /** Progress of a partition just assigned, from its committed offset and metadata (null when none). */
    static PartitionProgress resume(OffsetAndMetadata committed) {
        if (committed == null) {
            return new PartitionProgress(-1, Set.of(), -1);
        }
        long base = committed.offset();
        String metadata = committed.metadata();
        if (metadata == null || !metadata.startsWith(VERSION + ";")) {
            return new PartitionProgress(base, Set.of(), base);
        }
        long previousNext = base;
        Set<Long> previousOpen = new HashSet<>();
        for (String part : metadata.substring(VERSION.length() + 1).split(";")) {
            if (part.startsWith("next=")) {
                previousNext = Long.parseLong(part.substring(5));
            } else if (part.startsWith("open=") && part.length() > 5) {
                for (String delta : part.substring(5).split(",")) {
                    previousOpen.add(base + Long.parseLong(delta));
                }
            }
        }
        return new PartitionProgress(base, previousOpen, previousNext);
    }

    /** Whether a previous owner already finished (and published the outcome of) the intent at {@code offset}. */
    boolean finishedBefore(long offset) {
        return offset < previousNext && !previousOpen.contains(offset);
    }

    /** An intent at {@code offset} is being worked on. */
    void opened(long offset) {
        open.add(offset);
        next = Math.max(next, offset + 1);
    }

    /** The record at {@code offset} needs nothing (any more). */
    void finished(long offset) {
        open.remove(offset);
        next = Math.max(next, offset + 1);
    }

    int openCount() {
        return open.size();
    }

    /**
     * What to commit, or null when nothing is known yet. Offsets the previous owner left open and this one has not
     * read yet stay open in it, so committing early never forgets what is still to do.
     */
    OffsetAndMetadata position() {
        if (next < 0) {
            return null;
        }
        TreeSet<Long> unfinished = new TreeSet<>(open);
        for (long offset : previousOpen) {
            if (offset >= next) {
                unfinished.add(offset);
            }
        }
        long end = Math.max(next, previousNext);
        if (unfinished.isEmpty()) {
            return new OffsetAndMetadata(end, "");
        }
        long base = unfinished.first();
        StringJoiner deltas = new StringJoiner(",");
        for (long offset : unfinished) {
            deltas.add(Long.toString(offset - base));
        }
        return new OffsetAndMetadata(base, VERSION + ";next=" + end + ";open=" + deltas);
    }
}
