package io.gpuaas.booking.placement;

import io.gpuaas.events.geometry.MigPlacement;
import java.util.ArrayList;
import java.util.List;

/**
 * The units held on one GPU during one piece of time, ordered by slice, with the memory slices and compute they take
 * together. Immutable: adding or removing a unit gives a new layer.
 */
record Layer(List<Held> held, long mask, int compute) {

    static final Layer EMPTY = new Layer(List.of(), 0, 0);

    Layer plus(Held unit) {
        List<Held> more = new ArrayList<>(held);
        more.add(unit);
        more.sort(Held.ORDER);
        return new Layer(List.copyOf(more), mask | unit.mask(), compute + unit.compute());
    }

    Layer minus(Held unit) {
        List<Held> fewer = new ArrayList<>(held);
        if (!fewer.remove(unit)) {
            throw new IllegalStateException("unit " + unit + " is not held here");
        }
        return new Layer(List.copyOf(fewer), mask & ~unit.mask(), compute - unit.compute());
    }

    boolean isEmpty() {
        return held.isEmpty();
    }

    boolean isWhole() {
        return !held.isEmpty() && held.getFirst().isWhole();
    }

    boolean isMig() {
        return !held.isEmpty() && !isWhole();
    }

    /** The MIG instances this layer runs, ordered by start; empty for a whole GPU or nothing. */
    List<MigPlacement> layout() {
        return isWhole() ? List.of() : held.stream().map(Held::instance).toList();
    }

    /** The layout with {@code unit} added, ordered by start. */
    List<MigPlacement> layoutWith(Held unit) {
        List<MigPlacement> out = new ArrayList<>(held.size() + 1);
        boolean added = false;
        for (Held h : held) {
            if (!added && unit.slice() < h.slice()) {
                out.add(unit.instance());
                added = true;
            }
            out.add(h.instance());
        }
        if (!added) {
            out.add(unit.instance());
        }
        return out;
    }

    /** Whether a unit of {@code kind} runs at {@code start} here. */
    boolean runs(UnitKind kind, int start) {
        return held.stream().anyMatch(h -> h.isInstance(kind, start));
    }

    /** How many instances here take some of {@code slices} and are not {@code kind} at {@code start}. */
    int displaced(long slices, UnitKind kind, int start) {
        return (int) held.stream()
                .filter(h -> (h.mask() & slices) != 0 && !h.isInstance(kind, start))
                .count();
    }
}
