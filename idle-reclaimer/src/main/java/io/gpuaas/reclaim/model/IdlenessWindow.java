package io.gpuaas.reclaim.model;

import io.gpuaas.events.gpu.GpuActivity;

/**
 * The sliding idleness window of one GPU device (a full GPU or a MIG instance), in constant space.
 *
 * <p>Time is cut into slots of one expected sample interval; a ring of bits remembers which of the last
 * {@code slots} slots held a sample. Coverage is the share of the window's slots that held one, so a gap, a stale
 * exporter or a device that appeared mid-window all lower it. A busy or null sample moves {@code lastBadMillis}:
 * the window is idle only if no such sample falls inside it. Everything the rule needs is here, so this state can
 * be checkpointed and restored without keeping raw samples.
 */
public final class IdlenessWindow {

    /** No such instant (no sample yet, no busy sample, no idle run). */
    public static final long EMPTY = Long.MIN_VALUE;

    private final long slotMillis;
    private final int slots;
    private final long[] bits;
    private long headSlot;
    private long lastBadMillis;
    private long runStartMillis;
    private double runMax;
    /** This window's bytes in the state layout while it is unchanged (see {@link WorkloadWindowsCodec}). */
    private byte[] encoded;

    public IdlenessWindow(long slotMillis, int slots) {
        this(slotMillis, slots, new long[(slots + 63) / 64], EMPTY, EMPTY, EMPTY, 0.0);
    }

    IdlenessWindow(
            long slotMillis,
            int slots,
            long[] bits,
            long headSlot,
            long lastBadMillis,
            long runStartMillis,
            double runMax) {
        if (slotMillis <= 0 || slots <= 0) {
            throw new IllegalArgumentException("slotMillis and slots must be positive");
        }
        this.slotMillis = slotMillis;
        this.slots = slots;
        this.bits = bits;
        this.headSlot = headSlot;
        this.lastBadMillis = lastBadMillis;
        this.runStartMillis = runStartMillis;
        this.runMax = runMax;
    }

    /**
     * Records one sample.
     *
     * @param utilization busy ratio, or null when the exporter had no value: null is doubt, and doubt is busy
     * @param mediaBusy   the video decoder or encoder worked: busy whatever the utilization
     * @return true when the sample counts against idleness (busy or null)
     */
    public boolean record(long timeMillis, Double utilization, boolean mediaBusy, double threshold) {
        encoded = null;
        long slot = Math.floorDiv(timeMillis, slotMillis);
        if (headSlot == EMPTY || slot > headSlot) {
            advanceTo(slot);
        }
        if (slot > headSlot - slots) {
            int pos = (int) Math.floorMod(slot, (long) slots);
            bits[pos >>> 6] |= 1L << (pos & 63);
        }
        boolean bad =
                utilization == null || Double.isNaN(utilization) || GpuActivity.busy(utilization, mediaBusy, threshold);
        if (bad) {
            if (lastBadMillis == EMPTY || timeMillis >= lastBadMillis) {
                lastBadMillis = timeMillis;
                runStartMillis = EMPTY;
                runMax = 0.0;
            }
        } else if (lastBadMillis == EMPTY || timeMillis > lastBadMillis) {
            if (runStartMillis == EMPTY || timeMillis < runStartMillis) {
                runStartMillis = timeMillis;
            }
            runMax = Math.max(runMax, utilization);
        }
        return bad;
    }

    /**
     * Judges the window that ends in the slot of {@code nowMillis}. Slots after the last sample count as missing.
     *
     * @param notBeforeMillis the window may not start before this instant (warm-up after a start or a resume)
     */
    public DeviceVerdict verdictAt(long nowMillis, long notBeforeMillis, int requiredSamples) {
        long nowSlot = Math.floorDiv(nowMillis, slotMillis);
        if (headSlot != EMPTY && nowSlot > headSlot) {
            advanceTo(nowSlot);
        }
        long windowStart = (nowSlot - slots + 1) * slotMillis;
        int seen = headSlot == EMPTY || nowSlot < headSlot ? countUpTo(nowSlot) : popCount();
        DeviceVerdict.Reason reason;
        if (lastBadMillis != EMPTY && lastBadMillis >= windowStart) {
            reason = DeviceVerdict.Reason.BUSY;
        } else if (seen < requiredSamples) {
            reason = DeviceVerdict.Reason.LOW_COVERAGE;
        } else if (windowStart < notBeforeMillis) {
            reason = DeviceVerdict.Reason.WARM_UP;
        } else {
            reason = DeviceVerdict.Reason.IDLE;
        }
        long idleFor = runStartMillis == EMPTY ? 0 : Math.max(0, nowMillis - runStartMillis);
        return new DeviceVerdict(reason, seen, slots, runMax, windowStart, idleFor);
    }

    /**
     * When this device's part of a pending window began, if the last {@code spanSlots} slots up to
     * {@code nowMillis} pass the idleness rule (no busy or valueless sample, {@code requiredSamples} of them held a
     * sample, after {@code notBeforeMillis}); {@link #EMPTY} otherwise. The start is that of the device's idle run,
     * aligned to its slot, or the span's start if the run began earlier (its older part may have lacked samples).
     */
    public long idleSinceAt(long nowMillis, long notBeforeMillis, int spanSlots, int requiredSamples) {
        long nowSlot = Math.floorDiv(nowMillis, slotMillis);
        if (headSlot == EMPTY || runStartMillis == EMPTY) {
            return EMPTY;
        }
        if (nowSlot > headSlot) {
            advanceTo(nowSlot);
        }
        int span = Math.min(spanSlots, slots);
        long spanStart = (nowSlot - span + 1) * slotMillis;
        // Called on most samples of a busy workload: the cheap tests first, the bit count last.
        if ((lastBadMillis != EMPTY && lastBadMillis >= spanStart) || spanStart < notBeforeMillis) {
            return EMPTY;
        }
        long from = Math.max(nowSlot - span + 1, headSlot - slots + 1);
        long to = Math.min(nowSlot, headSlot);
        if (from > to || forRange(from, to, true) < requiredSamples) {
            return EMPTY;
        }
        return Math.max(Math.floorDiv(runStartMillis, slotMillis) * slotMillis, spanStart);
    }

    private void advanceTo(long slot) {
        encoded = null;
        if (headSlot == EMPTY || slot - headSlot >= slots) {
            java.util.Arrays.fill(bits, 0L);
        } else {
            forRange(headSlot + 1, slot, false);
        }
        headSlot = slot;
    }

    private int popCount() {
        int n = 0;
        for (long word : bits) {
            n += Long.bitCount(word);
        }
        return n;
    }

    /**
     * Samples in the window ending at {@code nowSlot} when a later sample already moved the head past it. Counted a
     * word at a time: a sample arriving a little out of order (devices of one workload come from different
     * partitions) makes every evaluation of its workload take this path.
     */
    private int countUpTo(long nowSlot) {
        if (headSlot == EMPTY) {
            return 0;
        }
        long from = Math.max(nowSlot - slots + 1, headSlot - slots + 1);
        return from > nowSlot ? 0 : forRange(from, nowSlot, true);
    }

    /**
     * Counts ({@code count}) or clears the ring bits of slots {@code from..to} (inclusive, at most {@code slots}
     * of them), which may wrap around the end of the ring.
     */
    private int forRange(long from, long to, boolean count) {
        int length = (int) (to - from + 1);
        int start = (int) Math.floorMod(from, (long) slots);
        int firstPart = Math.min(length, slots - start);
        return bitRange(start, start + firstPart, count) + bitRange(0, length - firstPart, count);
    }

    /** Counts or clears ring positions {@code [from, to)}. */
    private int bitRange(int from, int to, boolean count) {
        int n = 0;
        for (int pos = from; pos < to; ) {
            int word = pos >>> 6;
            int end = Math.min(to, (word + 1) << 6);
            int width = end - pos;
            long mask = (width == 64 ? -1L : (1L << width) - 1) << (pos & 63);
            if (count) {
                n += Long.bitCount(bits[word] & mask);
            } else {
                bits[word] &= ~mask;
            }
            pos = end;
        }
        return n;
    }

    public long slotMillis() {
        return slotMillis;
    }

    public int slots() {
        return slots;
    }

    long[] bits() {
        return bits;
    }

    long headSlot() {
        return headSlot;
    }

    long lastBadMillis() {
        return lastBadMillis;
    }

    long runStartMillis() {
        return runStartMillis;
    }

    double runMax() {
        return runMax;
    }

    byte[] encoded() {
        return encoded;
    }

    void encoded(byte[] bytes) {
        encoded = bytes;
    }
}
