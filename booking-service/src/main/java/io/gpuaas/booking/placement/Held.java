package io.gpuaas.booking.placement;

import io.gpuaas.events.geometry.GpuInstanceProfile;
import io.gpuaas.events.geometry.MigPlacement;
import java.util.Comparator;

/**
 * One unit of a booking held on one GPU: its kind and start slice with the memory slices and compute it takes. Two
 * units of one booking on one GPU differ by their slice.
 */
record Held(String bookingId, UnitKind kind, int slice, long mask, int compute) {

    static final Comparator<Held> ORDER = Comparator.comparingInt(Held::slice).thenComparing(Held::bookingId);

    static Held mig(String bookingId, GpuInstanceProfile profile, int start) {
        return new Held(
                bookingId,
                UnitKind.mig(profile.name()),
                start,
                GeometryRules.mask(profile, start),
                profile.computeSlices());
    }

    static Held whole(String bookingId, GeometryRules rules) {
        return new Held(
                bookingId,
                UnitKind.whole(),
                0,
                rules.allSlices(),
                rules.geometry().computeSlices());
    }

    boolean isWhole() {
        return kind instanceof UnitKind.WholeGpu;
    }

    /** The MIG instance this unit runs as; only for a MIG unit. */
    MigPlacement instance() {
        return MigPlacement.of(((UnitKind.Mig) kind).profile(), slice);
    }

    boolean isInstance(UnitKind other, int start) {
        return slice == start && kind.equals(other);
    }

    UnitPlacement on(GpuAddress gpu) {
        return new UnitPlacement(gpu, kind, slice);
    }
}
