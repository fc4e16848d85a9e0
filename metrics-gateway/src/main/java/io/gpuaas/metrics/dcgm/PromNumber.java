package io.gpuaas.metrics.dcgm;

import java.nio.charset.StandardCharsets;

/**
 * Parses a Prometheus sample value: plain decimals on a fast path (what dcgm-exporter writes, e.g.
 * {@code 8.969000}), exponents through {@link Double#parseDouble}, and {@code NaN}, {@code +Inf},
 * {@code -Inf} as Go's ParseFloat accepts them. Returns {@link #INVALID} (a NaN with its own bit pattern)
 * for anything else, so the caller can tell a bad value from a reported NaN without an exception.
 */
final class PromNumber {

    /** A NaN payload no parse result produces; compare with {@link #isInvalid}. */
    static final double INVALID = Double.longBitsToDouble(0x7ff8dead0000beefL);

    private static final double[] POW10 = new double[23];
    private static final byte[] NAN = Ascii.bytes("NaN");
    private static final byte[] INF = Ascii.bytes("Inf");
    private static final byte[] INFINITY = Ascii.bytes("Infinity");

    static {
        double p = 1;
        for (int i = 0; i < POW10.length; i++) {
            POW10[i] = p;
            p *= 10;
        }
    }

    private PromNumber() {}

    static boolean isInvalid(double value) {
        return Double.doubleToRawLongBits(value) == Double.doubleToRawLongBits(INVALID);
    }

    static double parse(byte[] text, int from, int to) {
        if (from >= to) {
            return INVALID;
        }
        boolean negative = text[from] == '-';
        int pos = negative || text[from] == '+' ? from + 1 : from;
        long mantissa = 0;
        int digits = 0;
        int fractionDigits = -1;
        for (; pos < to; pos++) {
            int c = text[pos];
            if (c >= '0' && c <= '9') {
                mantissa = mantissa * 10 + (c - '0');
                digits++;
                if (fractionDigits >= 0) {
                    fractionDigits++;
                }
            } else if (c == '.' && fractionDigits < 0) {
                fractionDigits = 0;
            } else {
                return slowPath(text, from, to, negative);
            }
        }
        if (digits == 0) {
            return INVALID;
        }
        int scale = Math.max(fractionDigits, 0);
        // Exact when the mantissa fits in 53 bits and the power of ten is exact: a single correctly rounded division.
        if (digits > 15 || scale >= POW10.length) {
            return slowPath(text, from, to, negative);
        }
        double value = mantissa / POW10[scale];
        return negative ? -value : value;
    }

    private static double slowPath(byte[] text, int from, int to, boolean negative) {
        int unsigned = text[from] == '-' || text[from] == '+' ? from + 1 : from;
        if (Ascii.equalsIgnoreCase(text, unsigned, to, NAN)) {
            return Double.NaN;
        }
        if (Ascii.equalsIgnoreCase(text, unsigned, to, INF) || Ascii.equalsIgnoreCase(text, unsigned, to, INFINITY)) {
            return negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        for (int i = from; i < to; i++) {
            int c = text[i];
            // Double.parseDouble also takes hex, "1f" and "1d"; the exposition format does not.
            if (!((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-')) {
                return INVALID;
            }
        }
        try {
            return Double.parseDouble(new String(text, from, to - from, StandardCharsets.US_ASCII));
        } catch (NumberFormatException e) {
            return INVALID;
        }
    }

    /** Whether {@code text[from, to)} is an integer timestamp (milliseconds, optionally negative). */
    static boolean isTimestamp(byte[] text, int from, int to) {
        int pos = from < to && text[from] == '-' ? from + 1 : from;
        if (pos >= to) {
            return false;
        }
        for (; pos < to; pos++) {
            if (text[pos] < '0' || text[pos] > '9') {
                return false;
            }
        }
        return true;
    }
}
