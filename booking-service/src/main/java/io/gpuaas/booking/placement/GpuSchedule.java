package io.gpuaas.booking.placement;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What one GPU holds over time, as a step function: each breakpoint (epoch millis) maps to the {@link Layer} that
 * holds from it until the next breakpoint; before the first and from the last on the GPU is empty. Only changes are
 * stored, so neighbouring layers always differ.
 *
 * <p>Breakpoints are kept in two sorted arrays (times and layers), so a read is a binary search and a walk over the
 * breakpoints it spans, with no tree node or view allocated: reading a window {@code [s, e)} costs {@code O(log n +
 * k)} for the {@code k} breakpoints inside it. Adding or removing a unit costs the same plus moving the breakpoints
 * after a new or dropped one (a GPU has tens to hundreds) and copying each touched layer (at most a GPU's instances,
 * 7 on an H200). Not thread-safe.
 */
final class GpuSchedule {

    /** One constant piece {@code [from, to)} of the schedule. */
    record Piece(long from, long to, Layer layer) {}

    private long[] times = new long[8];
    private Layer[] layers = new Layer[8];
    private int size;

    void add(Held unit, long start, long end) {
        change(start, end, unit, true);
    }

    void remove(Held unit, long start, long end) {
        change(start, end, unit, false);
    }

    Layer at(long t) {
        int i = floor(t);
        return i < 0 ? Layer.EMPTY : layers[i];
    }

    /** The constant pieces covering {@code [start, end)}, in order. */
    List<Piece> pieces(long start, long end) {
        List<Piece> out = new ArrayList<>(4);
        int i = floor(start);
        Layer layer = i < 0 ? Layer.EMPTY : layers[i];
        long cursor = start;
        for (int j = i + 1; j < size && times[j] < end; j++) {
            out.add(new Piece(cursor, times[j], layer));
            cursor = times[j];
            layer = layers[j];
        }
        out.add(new Piece(cursor, end, layer));
        return out;
    }

    /**
     * The first piece of {@code [start, end)} where {@code unit} cannot be added: a whole GPU needs the GPU empty; a
     * MIG instance needs its slices free and the layout with it valid. Null when it fits throughout.
     */
    Piece firstConflict(Held unit, long start, long end, GeometryRules rules) {
        for (Piece piece : pieces(start, end)) {
            Layer layer = piece.layer();
            boolean fits = unit.isWhole()
                    ? layer.isEmpty()
                    : (layer.mask() & unit.mask()) == 0 && rules.isValid(layer.layoutWith(unit));
            if (!fits) {
                return piece;
            }
        }
        return null;
    }

    /** The nearest non-empty layer that ends at or before {@code t}, or empty. */
    Layer lastBefore(long t) {
        int i = floor(t - 1);
        if (i < 0) {
            return Layer.EMPTY;
        }
        if (!layers[i].isEmpty()) {
            return layers[i];
        }
        // Neighbouring layers differ, so the one before an empty layer is not empty.
        return i == 0 ? Layer.EMPTY : layers[i - 1];
    }

    /** The nearest non-empty layer that starts at or after {@code t}, or empty. */
    Layer firstFrom(long t) {
        int i = floor(t);
        if (i >= 0 && !layers[i].isEmpty()) {
            return layers[i];
        }
        return i + 1 < size ? layers[i + 1] : Layer.EMPTY;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** The index of the last breakpoint at or before {@code t}, or -1. */
    private int floor(long t) {
        int lo = 0;
        int hi = size - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (times[mid] <= t) {
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return hi;
    }

    private void change(long start, long end, Held unit, boolean add) {
        if (end <= start) {
            return;
        }
        split(start);
        split(end);
        for (int j = floor(start); j < size && times[j] < end; j++) {
            layers[j] = add ? layers[j].plus(unit) : layers[j].minus(unit);
        }
        dropIfRedundant(end);
        dropIfRedundant(start);
    }

    /** Makes {@code t} a breakpoint (holding what held just before it) if it is not one. */
    private void split(long t) {
        int i = floor(t);
        if (i >= 0 && times[i] == t) {
            return;
        }
        if (size == times.length) {
            times = Arrays.copyOf(times, size * 2);
            layers = Arrays.copyOf(layers, size * 2);
        }
        int at = i + 1;
        System.arraycopy(times, at, times, at + 1, size - at);
        System.arraycopy(layers, at, layers, at + 1, size - at);
        times[at] = t;
        layers[at] = i < 0 ? Layer.EMPTY : layers[i];
        size++;
    }

    /** Drops the breakpoint at {@code t} if it holds what held just before it. */
    private void dropIfRedundant(long t) {
        int i = floor(t);
        if (i < 0 || times[i] != t) {
            return;
        }
        Layer before = i == 0 ? Layer.EMPTY : layers[i - 1];
        if (before.equals(layers[i])) {
            System.arraycopy(times, i + 1, times, i, size - i - 1);
            System.arraycopy(layers, i + 1, layers, i, size - i - 1);
            size--;
            layers[size] = null;
        }
    }
}
