package io.gpuaas.metrics.dcgm;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Finds delimiter bytes eight at a time (SWAR: a {@code long} read from the array, then the classic
 * "which byte is zero" bit trick). A dcgm-exporter line is ~230 bytes, most of them label values and lines the
 * gateway skips; scanning them byte by byte was the largest single cost of a parse.
 */
final class ByteScan {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;
    private static final long NEWLINES = ONES * '\n';
    private static final long QUOTES = ONES * '"';
    private static final long BACKSLASHES = ONES * '\\';

    private ByteScan() {}

    /** The index of the first {@code \n} in {@code text[from, to)}, or {@code to}. */
    static int newline(byte[] text, int from, int to) {
        int i = from;
        for (; i <= to - Long.BYTES; i += Long.BYTES) {
            long found = zeroBytes((long) LONGS.get(text, i) ^ NEWLINES);
            if (found != 0) {
                return i + (Long.numberOfTrailingZeros(found) >>> 3);
            }
        }
        while (i < to && text[i] != '\n') {
            i++;
        }
        return i;
    }

    /** The index of the first {@code "} or {@code \} in {@code text[from, to)}, or {@code to}. */
    static int quoteOrBackslash(byte[] text, int from, int to) {
        int i = from;
        for (; i <= to - Long.BYTES; i += Long.BYTES) {
            long word = (long) LONGS.get(text, i);
            long found = zeroBytes(word ^ QUOTES) | zeroBytes(word ^ BACKSLASHES);
            if (found != 0) {
                return i + (Long.numberOfTrailingZeros(found) >>> 3);
            }
        }
        while (i < to && text[i] != '"' && text[i] != '\\') {
            i++;
        }
        return i;
    }

    /**
     * A 64-bit mix of {@code text[from, to)} from its length and its first, middle and last eight bytes: O(1) for
     * label values (hostnames and UUIDs differ at the start or the end); callers confirm a match by comparing bytes.
     */
    static long sketch(byte[] text, int from, int to) {
        int length = to - from;
        long h = length;
        if (length < Long.BYTES) {
            for (int i = from; i < to; i++) {
                h = h * 31 + text[i];
            }
        } else {
            h = h * 31 + (long) LONGS.get(text, from);
            h = h * 0x9E3779B97F4A7C15L + (long) LONGS.get(text, from + (length - Long.BYTES) / 2);
            h = h * 0x9E3779B97F4A7C15L + (long) LONGS.get(text, to - Long.BYTES);
        }
        h *= 0x9E3779B97F4A7C15L;
        return h ^ (h >>> 29);
    }

    /** The high bit of every byte of {@code word} that is zero (exact for the lowest such byte, which is all we use). */
    private static long zeroBytes(long word) {
        return (word - ONES) & ~word & HIGHS;
    }
}
