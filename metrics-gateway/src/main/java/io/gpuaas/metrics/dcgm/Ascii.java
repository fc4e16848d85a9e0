package io.gpuaas.metrics.dcgm;

import java.nio.charset.StandardCharsets;

/** Byte-level helpers for the ASCII parts of the Prometheus text format; no allocation on the hot path. */
final class Ascii {

    private Ascii() {}

    /** Upper-case ASCII bytes of {@code s}, the form {@link #equalsIgnoreCase} compares against. */
    static byte[] bytes(String s) {
        return s.toUpperCase(java.util.Locale.ROOT).getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Whether {@code text[from, to)} equals {@code upper} ignoring ASCII case. Compares from the end: DCGM names
     * share long prefixes ({@code DCGM_FI_DEV_GPU_TEMP} / {@code DCGM_FI_DEV_GPU_UTIL}) and differ at the tail.
     */
    static boolean equalsIgnoreCase(byte[] text, int from, int to, byte[] upper) {
        if (to - from != upper.length) {
            return false;
        }
        for (int i = upper.length - 1; i >= 0; i--) {
            int c = text[from + i];
            if (c >= 'a' && c <= 'z') {
                c -= 32;
            }
            if (c != upper[i]) {
                return false;
            }
        }
        return true;
    }

    static boolean isNameStart(int c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
    }

    static boolean isNamePart(int c) {
        return NAME_PART[c & 0xff];
    }

    /** Name characters by byte value: one load per byte in the name loops instead of five comparisons. */
    private static final boolean[] NAME_PART = new boolean[256];

    static {
        for (int c = 0; c < 128; c++) {
            NAME_PART[c] = isNameStart(c) || (c >= '0' && c <= '9');
        }
    }

    static boolean isBlank(int c) {
        return c == ' ' || c == '\t' || c == '\r';
    }

    static int skipBlanks(byte[] text, int pos, int end) {
        while (pos < end && isBlank(text[pos])) {
            pos++;
        }
        return pos;
    }
}
