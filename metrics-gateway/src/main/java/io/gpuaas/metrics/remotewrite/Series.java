package io.gpuaas.metrics.remotewrite;

import io.gpuaas.metrics.dcgm.DcgmField;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One {@code prometheus.TimeSeries} as read: label names and values as slices of the decompressed request (no String
 * until a mapper asks for one), samples as parallel arrays. The reader reuses one instance for every series of a
 * request, so a handler must copy what it keeps.
 */
public final class Series {

    private byte[] buf = new byte[0];
    private int labels;
    private int[] nameFrom = new int[16];
    private int[] nameTo = new int[16];
    private int[] valueFrom = new int[16];
    private int[] valueTo = new int[16];
    private int samples;
    private double[] values = new double[4];
    private long[] timestamps = new long[4];

    void reset(byte[] request) {
        buf = request;
        labels = 0;
        samples = 0;
    }

    void addLabel(int nameStart, int nameEnd, int valueStart, int valueEnd) {
        if (labels == nameFrom.length) {
            int capacity = labels * 2;
            nameFrom = Arrays.copyOf(nameFrom, capacity);
            nameTo = Arrays.copyOf(nameTo, capacity);
            valueFrom = Arrays.copyOf(valueFrom, capacity);
            valueTo = Arrays.copyOf(valueTo, capacity);
        }
        nameFrom[labels] = nameStart;
        nameTo[labels] = nameEnd;
        valueFrom[labels] = valueStart;
        valueTo[labels] = valueEnd;
        labels++;
    }

    void addSample(double value, long timestampMillis) {
        if (samples == values.length) {
            values = Arrays.copyOf(values, samples * 2);
            timestamps = Arrays.copyOf(timestamps, samples * 2);
        }
        values[samples] = value;
        timestamps[samples] = timestampMillis;
        samples++;
    }

    public int labelCount() {
        return labels;
    }

    public int sampleCount() {
        return samples;
    }

    public double sampleValue(int sample) {
        return values[sample];
    }

    public long sampleTimestamp(int sample) {
        return timestamps[sample];
    }

    public int nameLength(int i) {
        return nameTo[i] - nameFrom[i];
    }

    /** Whether label {@code i}'s name equals {@code upper} ignoring ASCII case ({@code upper} upper-case ASCII). */
    public boolean nameEqualsIgnoreCase(int i, byte[] upper) {
        return equalsIgnoreCase(nameFrom[i], nameTo[i], upper);
    }

    /** The DCGM field label {@code i}'s value names (ignoring case), or null for any other value. */
    public DcgmField fieldNamedBy(int i) {
        return DcgmField.of(buf, valueFrom[i], valueTo[i]);
    }

    /** Whether label {@code i}'s value equals {@code upper} ignoring ASCII case ({@code upper} upper-case ASCII). */
    public boolean valueEqualsIgnoreCase(int i, byte[] upper) {
        return equalsIgnoreCase(valueFrom[i], valueTo[i], upper);
    }

    /** Whether label {@code i}'s value is exactly {@code bytes}; an absent label ({@code i < 0}) is null. */
    public boolean valueIs(int i, byte[] bytes) {
        if (i < 0) {
            return bytes == null;
        }
        return bytes != null && Arrays.equals(buf, valueFrom[i], valueTo[i], bytes, 0, bytes.length);
    }

    /** A copy of label {@code i}'s value bytes; null for an absent label ({@code i < 0}). */
    public byte[] valueBytes(int i) {
        return i < 0 ? null : Arrays.copyOfRange(buf, valueFrom[i], valueTo[i]);
    }

    private boolean equalsIgnoreCase(int from, int to, byte[] upper) {
        if (to - from != upper.length) {
            return false;
        }
        for (int k = upper.length - 1; k >= 0; k--) {
            int c = buf[from + k];
            if (c >= 'a' && c <= 'z') {
                c -= 32;
            }
            if (c != upper[k]) {
                return false;
            }
        }
        return true;
    }

    public boolean valueEmpty(int i) {
        return valueTo[i] == valueFrom[i];
    }

    public String name(int i) {
        return new String(buf, nameFrom[i], nameTo[i] - nameFrom[i], StandardCharsets.UTF_8);
    }

    /** Label {@code i}'s value; null for an absent label ({@code i < 0}). */
    public String value(int i) {
        return i < 0 ? null : new String(buf, valueFrom[i], valueTo[i] - valueFrom[i], StandardCharsets.UTF_8);
    }
}
