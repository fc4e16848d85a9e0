package io.gpuaas.booking.placement;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one GPU holds over time, as a step function: each breakpoint (epoch millis) maps to the {@link Layer} that
 * holds from it until the next breakpoint; before the first and from the last on the GPU is empty. Only changes are
 * stored, so neighbouring layers always differ.
 *
 * <p>A unit costs at most two breakpoints. Reading a window {@code [s, e)} costs {@code O(log n + k)} for the
 * {@code k} breakpoints inside it, independent of what the GPU holds elsewhere in time; adding or removing a unit
 * costs the same plus copying each touched layer (at most a GPU's instances, 7 on an H200). Not thread-safe.
 */
final class GpuSchedule {

    /** One constant piece {@code [from, to)} of the schedule. */
    record Piece(long from, long to, Layer layer) {}

    private final TreeMap<Long, Layer> steps = new TreeMap<>();

    void add(Held unit, long start, long end) {
        change(start, end, unit, true);
    }

    void remove(Held unit, long start, long end) {
        change(start, end, unit, false);
    }

    Layer at(long t) {
        Map.Entry<Long, Layer> floor = steps.floorEntry(t);
        return floor == null ? Layer.EMPTY : floor.getValue();
    }

    /** The constant pieces covering {@code [start, end)}, in order. */
    List<Piece> pieces(long start, long end) {
        List<Piece> out = new ArrayList<>();
        long cursor = start;
        Layer layer = at(start);
        for (Map.Entry<Long, Layer> step :
                steps.subMap(start, false, end, false).entrySet()) {
            out.add(new Piece(cursor, step.getKey(), layer));
            cursor = step.getKey();
            layer = step.getValue();
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
        Map.Entry<Long, Layer> floor = steps.floorEntry(t - 1);
        if (floor == null || !floor.getValue().isEmpty()) {
            return floor == null ? Layer.EMPTY : floor.getValue();
        }
        // Neighbouring layers differ, so the one before an empty layer is not empty.
        Map.Entry<Long, Layer> earlier = steps.lowerEntry(floor.getKey());
        return earlier == null ? Layer.EMPTY : earlier.getValue();
    }

    /** The nearest non-empty layer that starts at or after {@code t}, or empty. */
    Layer firstFrom(long t) {
        Layer now = at(t);
        if (!now.isEmpty()) {
            return now;
        }
        Map.Entry<Long, Layer> later = steps.higherEntry(t);
        return later == null ? Layer.EMPTY : later.getValue();
    }

    boolean isEmpty() {
        return steps.isEmpty();
    }

    private void change(long start, long end, Held unit, boolean add) {
        if (end <= start) {
            return;
        }
        split(start);
        split(end);
        for (Map.Entry<Long, Layer> step : steps.subMap(start, true, end, false).entrySet()) {
            step.setValue(add ? step.getValue().plus(unit) : step.getValue().minus(unit));
        }
        dropIfRedundant(end);
        dropIfRedundant(start);
    }

    private void split(long t) {
        if (!steps.containsKey(t)) {
            steps.put(t, at(t));
        }
    }

    private void dropIfRedundant(long t) {
        Layer layer = steps.get(t);
        if (layer == null) {
            return;
        }
        Map.Entry<Long, Layer> previous = steps.lowerEntry(t);
        Layer before = previous == null ? Layer.EMPTY : previous.getValue();
        if (before.equals(layer)) {
            steps.remove(t);
        }
    }
}
