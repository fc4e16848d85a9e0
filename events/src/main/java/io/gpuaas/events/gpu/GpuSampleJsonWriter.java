package io.gpuaas.events.gpu;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;

/**
 * Writes a GpuSample as {@code Json.mapper()} writes it (component order, ISO instants, nulls left out, Jackson's
 * string escaping) straight into bytes, without Jackson's reflection. Non-finite doubles are left out as well (a
 * missing reading, where Jackson would write a string the schema rejects). Its buffer is reused from sample to
 * sample, and the last instant's text is kept: every sample of one scrape has the same time, and formatting it
 * through {@code DateTimeFormatter} cost more than the rest of the body. Not thread-safe.
 */
final class GpuSampleJsonWriter {

    private static final byte[] TIME = name("time", true);
    private static final byte[] HOSTNAME = name("hostname", false);
    private static final byte[] UUID = name("uuid", false);
    private static final byte[] GPU_INDEX = name("gpuIndex", false);
    private static final byte[] MODEL_NAME = name("modelName", false);
    private static final byte[] GPU_INSTANCE_ID = name("gpuInstanceId", false);
    private static final byte[] MIG_PROFILE = name("migProfile", false);
    private static final byte[] NAMESPACE = name("namespace", false);
    private static final byte[] POD = name("pod", false);
    private static final byte[] CONTAINER = name("container", false);
    private static final byte[] UTILIZATION = name("utilization", false);
    private static final byte[] UTILIZATION_SOURCE = name("utilizationSource", false);
    private static final byte[] MEMORY_USED = name("memoryUsedMiB", false);
    private static final byte[] MEMORY_FREE = name("memoryFreeMiB", false);
    private static final byte[] POWER = name("powerWatts", false);
    /** {@code Double.toString} writes integral values below 10^7 as their digits and ".0". */
    private static final double PLAIN_INTEGRAL_LIMIT = 1e7;

    private byte[] out = new byte[512];
    private int size;
    private Instant lastTime;
    private byte[] lastTimeText;

    /** The JSON body of {@code s}, a fresh array of exactly its length. */
    byte[] write(GpuSample s) {
        size = 0;
        put((byte) '{');
        if (s.time() != null) {
            field(TIME);
            put(timeText(s.time()));
        }
        string(HOSTNAME, s.hostname());
        string(UUID, s.uuid());
        integer(GPU_INDEX, s.gpuIndex());
        string(MODEL_NAME, s.modelName());
        string(GPU_INSTANCE_ID, s.gpuInstanceId());
        string(MIG_PROFILE, s.migProfile());
        string(NAMESPACE, s.namespace());
        string(POD, s.pod());
        string(CONTAINER, s.container());
        number(UTILIZATION, s.utilization());
        string(UTILIZATION_SOURCE, s.utilizationSource());
        number(MEMORY_USED, s.memoryUsedMiB());
        number(MEMORY_FREE, s.memoryFreeMiB());
        number(POWER, s.powerWatts());
        put((byte) '}');
        return Arrays.copyOf(out, size);
    }

    private byte[] timeText(Instant time) {
        if (!time.equals(lastTime)) {
            lastTimeText = ('"' + time.toString() + '"').getBytes(StandardCharsets.US_ASCII);
            lastTime = time;
        }
        return lastTimeText;
    }

    /** {@code "name":} with the comma that separates it from the previous field (none before the first). */
    private static byte[] name(String name, boolean first) {
        return ((first ? "" : ",") + '"' + name + "\":").getBytes(StandardCharsets.US_ASCII);
    }

    /** Writes a field name; the leading comma is dropped when nothing precedes it (no time, nulls before). */
    private void field(byte[] name) {
        if (size == 1 && name[0] == ',') {
            put(name, 1, name.length - 1);
        } else {
            put(name, 0, name.length);
        }
    }

    private void string(byte[] name, String value) {
        if (value == null) {
            return;
        }
        field(name);
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

    private void integer(byte[] name, Integer value) {
        if (value != null) {
            field(name);
            ascii(Integer.toString(value));
        }
    }

    private void number(byte[] name, Double value) {
        if (value == null || !Double.isFinite(value)) {
            return;
        }
        field(name);
        double d = value;
        long whole = (long) d;
        // The common reading (a whole number of MiB or W) skips Double.toString; -0.0 and the rest go the long way.
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

    private void put(byte b) {
        ensure(1);
        out[size++] = b;
    }

    private void put(byte[] bytes) {
        put(bytes, 0, bytes.length);
    }

    private void put(byte[] bytes, int from, int length) {
        ensure(length);
        System.arraycopy(bytes, from, out, size, length);
        size += length;
    }

    private void ensure(int more) {
        if (size + more > out.length) {
            out = Arrays.copyOf(out, Math.max(out.length * 2, size + more));
        }
    }
}
