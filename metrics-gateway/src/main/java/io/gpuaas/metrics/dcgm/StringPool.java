package io.gpuaas.metrics.dcgm;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Turns label value bytes into Strings without allocating for values seen before. A scrape repeats the same
 * hostname, UUID and pod on every line, and the next scrape of the same target repeats them again, so one
 * pool per target makes the parser allocation-free for labels in the steady state. Not thread-safe.
 */
final class StringPool {

    // Per target: a node has tens of distinct label values (up to ~150 with 56 MIG instances); 1,250 targets x 4 KiB.
    private static final int CAPACITY = 512;

    private final byte[][] keys = new byte[CAPACITY][];
    private final String[] values = new String[CAPACITY];
    private int size;

    /** The String for UTF-8 bytes {@code text[from, to)}. */
    String get(byte[] text, int from, int to) {
        int hash = hash(text, from, to);
        int mask = CAPACITY - 1;
        for (int i = hash & mask, probes = 0; probes < CAPACITY; i = (i + 1) & mask, probes++) {
            byte[] key = keys[i];
            if (key == null) {
                return insert(i, text, from, to);
            }
            if (Arrays.equals(key, 0, key.length, text, from, to)) {
                return values[i];
            }
        }
        return new String(text, from, to - from, StandardCharsets.UTF_8);
    }

    private String insert(int slot, byte[] text, int from, int to) {
        String value = new String(text, from, to - from, StandardCharsets.UTF_8);
        // A target whose label values never repeat (a churn of pods) must not grow memory without bound.
        if (size >= CAPACITY / 2) {
            Arrays.fill(keys, null);
            Arrays.fill(values, null);
            size = 0;
            return value;
        }
        keys[slot] = Arrays.copyOfRange(text, from, to);
        values[slot] = value;
        size++;
        return value;
    }

    /** O(1) in the value's length (a full polynomial hash of every UUID on every line measured ~9% of a parse). */
    private static int hash(byte[] text, int from, int to) {
        return (int) ByteScan.sketch(text, from, to);
    }
}
