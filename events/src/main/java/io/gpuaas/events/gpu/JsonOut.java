package io.gpuaas.events.gpu;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growable byte buffer that writes JSON values the way {@code Json.mapper()} spells them (Jackson's string
 * escaping, {@code Double.toString} numbers), reused from record to record. Not thread-safe.
 */
final class JsonOut {

    /** {@code Double.toString} writes integral values below 10^7 as their digits and ".0". */
    private static final double PLAIN_INTEGRAL_LIMIT = 1e7;

    private byte[] out = new byte[1024];
    private int size;

    void reset() {
        size = 0;
    }

    /** The bytes written since {@link #reset()}, as a fresh array of exactly their length. */
    byte[] toByteArray() {
        return Arrays.copyOf(out, size);
    }

    /** A JSON string: printable ASCII is copied as is, anything else escaped as Jackson does and UTF-8 encoded. */
    void string(String value) {
        if (!plainAscii(value)) {
            put(quoted(value).getBytes(StandardCharsets.UTF_8));
            return;
        }
        int length = value.length();
        ensure(length + 2);
        out[size++] = '"';
        for (int i = 0; i < length; i++) {
            out[size++] = (byte) value.charAt(i);
        }
        out[size++] = '"';
    }

    void integer(int value) {
        ascii(Integer.toString(value));
    }

    /** A finite double as {@code Double.toString} writes it; the common whole reading skips that method. */
    void number(double d) {
        long whole = (long) d;
        if (whole == d
                && Math.abs(d) < PLAIN_INTEGRAL_LIMIT
                && Double.doubleToRawLongBits(d) != Double.doubleToRawLongBits(-0.0)) {
            ascii(Long.toString(whole));
            put((byte) '.');
            put((byte) '0');
        } else {
            ascii(Double.toString(d));
        }
    }

    void put(byte b) {
        ensure(1);
        out[size++] = b;
    }

    void put(byte[] bytes) {
        ensure(bytes.length);
        System.arraycopy(bytes, 0, out, size, bytes.length);
        size += bytes.length;
    }

    /** Printable ASCII without a quote or backslash: written as is; anything else takes {@link #quoted}. */
    private static boolean plainAscii(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
                return false;
            }
        }
        return true;
    }

    /** {@code text} quoted and escaped as Jackson writes it; other characters are kept, to be UTF-8 encoded. */
    static String quoted(String text) {
        StringBuilder quoted = new StringBuilder(text.length() + 8).append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> quoted.append("\\\"");
                case '\\' -> quoted.append("\\\\");
                case '\n' -> quoted.append("\\n");
                case '\r' -> quoted.append("\\r");
                case '\t' -> quoted.append("\\t");
                case '\b' -> quoted.append("\\b");
                case '\f' -> quoted.append("\\f");
                default -> {
                    if (c < 0x20) {
                        quoted.append(String.format("\\u%04X", (int) c));
                    } else {
                        quoted.append(c);
                    }
                }
            }
        }
        return quoted.append('"').toString();
    }

    private void ascii(String text) {
        int length = text.length();
        ensure(length);
        for (int i = 0; i < length; i++) {
            out[size++] = (byte) text.charAt(i);
        }
    }

    private void ensure(int more) {
        if (size + more > out.length) {
            out = Arrays.copyOf(out, Math.max(out.length * 2, size + more));
        }
    }
}
