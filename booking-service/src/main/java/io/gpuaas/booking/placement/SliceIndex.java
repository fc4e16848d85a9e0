package io.gpuaas.booking.placement;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * A coarse summary of which memory slices every GPU holds, per fixed bucket of time, to skip GPUs before their
 * schedules are read. A bucket wholly inside a window lies in it, so a slice the summary shows held in such a bucket
 * is held somewhere in the window: a unit needing that slice cannot go there. The summary never shows a slice held
 * that is free (adds and removes are counted exactly), so a GPU it rules out is ruled out; one it lets through is
 * still checked in full. It only saves work and never changes an answer.
 *
 * <p>Per bucket, per GPU, one {@code long} of eight 8-bit counters, one per memory slice: how many units hold the
 * slice somewhere in the bucket. Buckets nothing holds are dropped. A GPU with more than eight memory slices, or a
 * counter that would pass 255 (256 units on one slice of one GPU within one bucket), turns the summary off for good:
 * every GPU is let through, as if there were no index.
 *
 * <p>Cost: adding or removing a unit touches each bucket its window overlaps; a query ORs each bucket wholly inside the
 * window over every GPU, {@code O(B · G)} for {@code B} buckets, with no schedule read. Not thread-safe.
 */
final class SliceIndex {

    /** A bucket's width: the booking alignment, so aligned windows are made of whole buckets. */
    static final long BUCKET_MILLIS = 15 * 60 * 1000L;

    private static final long[] SPREAD = new long[256];

    static {
        for (int mask = 0; mask < 256; mask++) {
            long spread = 0;
            for (int slice = 0; slice < 8; slice++) {
                if ((mask & (1 << slice)) != 0) {
                    spread |= 1L << (8 * slice);
                }
            }
            SPREAD[mask] = spread;
        }
    }

    private final int gpus;
    /** Per bucket, the counters of every GPU, then how many GPUs hold anything in it. */
    private final Map<Long, long[]> buckets = new HashMap<>();

    private boolean off;
    /** What {@link #heldInside} answers in, reused: a query allocates nothing. */
    private final long[] scratch;

    SliceIndex(int gpus, int memorySlices) {
        this.gpus = gpus;
        this.off = memorySlices > 8;
        this.scratch = new long[gpus];
    }

    /** A unit with {@code mask}'s slices held on {@code gpu} over {@code [start, end)}. */
    void add(int gpu, long mask, long start, long end) {
        if (end > start) {
            addBuckets(gpu, mask, Math.floorDiv(start, BUCKET_MILLIS), lastBucket(end));
        }
    }

    /** A unit added over {@code [start, end)} taken off again: exactly undoes that {@link #add}. */
    void remove(int gpu, long mask, long start, long end) {
        if (end > start) {
            removeBuckets(gpu, mask, Math.floorDiv(start, BUCKET_MILLIS), lastBucket(end));
        }
    }

    /**
     * A unit added over {@code [start, oldEnd)} now held over {@code [start, newEnd)}: only the buckets one window
     * overlaps and the other does not change, so a later {@link #remove} of the new window undoes it all.
     */
    void moveEnd(int gpu, long mask, long start, long oldEnd, long newEnd) {
        long first = Math.floorDiv(start, BUCKET_MILLIS);
        long oldLast = lastBucket(oldEnd);
        long newLast = lastBucket(newEnd);
        if (newLast > oldLast) {
            addBuckets(gpu, mask, Math.max(first, oldLast + 1), newLast);
        } else if (newLast < oldLast) {
            removeBuckets(gpu, mask, Math.max(first, newLast + 1), oldLast);
        }
    }

    private static long lastBucket(long end) {
        return Math.floorDiv(end - 1, BUCKET_MILLIS);
    }

    private void addBuckets(int gpu, long mask, long first, long last) {
        if (off) {
            return;
        }
        long one = SPREAD[(int) mask];
        for (long b = first; b <= last; b++) {
            long[] row = buckets.computeIfAbsent(b, k -> new long[gpus + 1]);
            long counters = row[gpu];
            if (hasFullCounter(counters, mask)) {
                off = true;
                buckets.clear();
                return;
            }
            if (counters == 0) {
                row[gpus]++;
            }
            row[gpu] = counters + one;
        }
    }

    private void removeBuckets(int gpu, long mask, long first, long last) {
        if (off) {
            return;
        }
        long one = SPREAD[(int) mask];
        for (long b = first; b <= last; b++) {
            long[] row = buckets.get(b);
            if (row == null) {
                throw new IllegalStateException("nothing is held in bucket " + b);
            }
            long counters = row[gpu] - one;
            row[gpu] = counters;
            if (counters == 0 && --row[gpus] == 0) {
                buckets.remove(b);
            }
        }
    }

    /**
     * Per GPU, the slices held in some bucket wholly inside {@code [start, end)}, as counters (a slice's byte is not
     * zero where it is held), or null when no bucket lies wholly inside or the summary is off: then nothing is known.
     * The array is the index's own, valid until the next call.
     */
    long[] heldInside(long start, long end) {
        long first = Math.floorDiv(start + BUCKET_MILLIS - 1, BUCKET_MILLIS);
        long last = Math.floorDiv(end, BUCKET_MILLIS) - 1;
        if (off || last < first) {
            return null;
        }
        long[] held = scratch;
        Arrays.fill(held, 0L);
        for (long b = first; b <= last; b++) {
            long[] row = buckets.get(b);
            if (row != null) {
                for (int g = 0; g < gpus; g++) {
                    held[g] |= row[g];
                }
            }
        }
        return held;
    }

    /** Whether {@code held} (from {@link #heldInside}) leaves every slice of {@code mask} free. */
    static boolean free(long held, long mask) {
        return (held & SPREAD[(int) mask] * 0xFF) == 0;
    }

    /** Whether the index answers at all: false once it has turned itself off. */
    boolean on() {
        return !off;
    }

    private static boolean hasFullCounter(long counters, long mask) {
        for (int slice = 0; slice < 8; slice++) {
            if ((mask & (1L << slice)) != 0 && ((counters >>> (8 * slice)) & 0xFF) == 0xFF) {
                return true;
            }
        }
        return false;
    }
}
