package io.gpuaas.booking.placement;

import io.gpuaas.events.geometry.GpuInstanceProfile;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Picks the GPU and start slice for one unit over a window, by the placement rule (best first):
 *
 * <ol>
 *   <li><b>GPU class.</b> A MIG unit goes first to a GPU that runs MIG instances during the window, then to one that
 *       runs them just before or after it, then to an empty one, last to one a whole-GPU booking uses before or
 *       after. A whole GPU goes first beside other whole-GPU bookings, then to an empty GPU, last between MIG
 *       layouts. So empty GPUs stay empty for whole-GPU bookings and a GPU keeps its mode.
 *   <li><b>Stable layout.</b> A start where the nearest layouts before and after the window run the same profile at
 *       the same start, then one that displaces the fewest of their instances, so a GPU changes little.
 *   <li><b>Best fit.</b> The GPU whose slices are most used during the window.
 *   <li><b>Room kept.</b> The start that leaves the GPU the most room, largest profile first ({@link
 *       GeometryRules#room}): on an empty H200 a 3g.71gb at 4 (a 4g.71gb still fits at 0), a 1g.18gb at 6.
 *   <li>The lowest GPU address, then the highest start: every profile may start at slice 0, so small instances
 *       packed from the top leave the low starts to the large ones. A total order: the same fleet gives the same
 *       answer.
 * </ol>
 *
 * <p>Cost per unit: every GPU's pieces in the window and every start of the profile, {@code O(G · (log n + k) · S)}.
 */
final class UnitChooser {

    /** One place a unit fits, with what the rule weighs. */
    record Candidate(
            GpuAddress gpu, Held unit, int gpuClass, int reuse, int displaced, int usedSlices, List<Integer> room) {}

    static final Comparator<Candidate> BEST = Comparator.comparingInt(Candidate::gpuClass)
            .thenComparing(Comparator.comparingInt(Candidate::reuse).reversed())
            .thenComparingInt(Candidate::displaced)
            .thenComparing(Comparator.comparingInt(Candidate::usedSlices).reversed())
            .thenComparing(Candidate::room, (a, b) -> GeometryRules.compareRoom(b, a))
            .thenComparing(Candidate::gpu)
            .thenComparing(c -> c.unit().slice(), Comparator.reverseOrder());

    private final GeometryRules rules;

    UnitChooser(GeometryRules rules) {
        this.rules = rules;
    }

    /** The best place for one unit of {@code kind} anywhere in {@code gpus}, or null when none is free throughout. */
    Candidate best(Map<GpuAddress, GpuSchedule> gpus, String bookingId, UnitKind kind, long start, long end) {
        Candidate best = null;
        for (Map.Entry<GpuAddress, GpuSchedule> gpu : gpus.entrySet()) {
            // The class comes first in the order: a GPU of a worse class than the best so far cannot win.
            int worstClass = best == null ? Integer.MAX_VALUE : best.gpuClass();
            Candidate c = bestOn(gpu.getKey(), gpu.getValue(), bookingId, kind, start, end, worstClass);
            if (c != null && (best == null || BEST.compare(c, best) < 0)) {
                best = c;
            }
        }
        return best;
    }

    /**
     * The best place for one unit of {@code kind} on this GPU, or null when no start is free throughout or the GPU's
     * class is worse than {@code worstClass}.
     */
    Candidate bestOn(
            GpuAddress gpu,
            GpuSchedule schedule,
            String bookingId,
            UnitKind kind,
            long start,
            long end,
            int worstClass) {
        Layer before = schedule.lastBefore(start);
        Layer after = schedule.firstFrom(end);
        Candidate c =
                switch (kind) {
                    case UnitKind.WholeGpu whole -> wholeOn(gpu, schedule, bookingId, start, end, before, after);
                    case UnitKind.Mig mig ->
                        migOn(gpu, schedule, bookingId, mig, start, end, before, after, worstClass);
                };
        return c == null || c.gpuClass() > worstClass ? null : c;
    }

    private Candidate wholeOn(
            GpuAddress gpu, GpuSchedule schedule, String bookingId, long start, long end, Layer before, Layer after) {
        Held unit = Held.whole(bookingId, rules);
        if (schedule.firstConflict(unit, start, end, rules) != null) {
            return null;
        }
        int gpuClass = before.isMig() || after.isMig() ? 2 : before.isWhole() || after.isWhole() ? 0 : 1;
        return new Candidate(gpu, unit, gpuClass, 0, 0, 0, List.of());
    }

    /** What the GPU's pieces in the window hold: the slices used anywhere, the most compute slices, any MIG. */
    private record WindowUse(List<GpuSchedule.Piece> pieces, long used, int compute, boolean mig) {}

    private Candidate migOn(
            GpuAddress gpu,
            GpuSchedule schedule,
            String bookingId,
            UnitKind.Mig kind,
            long start,
            long end,
            Layer before,
            Layer after,
            int worstClass) {
        WindowUse use = windowUse(schedule.pieces(start, end));
        if (use == null) {
            return null;
        }
        int gpuClass = migClass(use, before, after);
        if (gpuClass > worstClass) {
            return null;
        }
        GpuInstanceProfile profile = rules.profile(kind.profile()).orElseThrow();
        Candidate best = null;
        for (int slice : profile.starts()) {
            Candidate c = migAt(gpu, bookingId, kind, profile, slice, use, gpuClass, before, after);
            if (c != null && (best == null || BEST.compare(c, best) < 0)) {
                best = c;
            }
        }
        return best;
    }

    /** The window's use of the GPU, or null when a whole-GPU booking holds it somewhere in the window. */
    private static WindowUse windowUse(List<GpuSchedule.Piece> pieces) {
        long used = 0;
        int compute = 0;
        boolean mig = false;
        for (GpuSchedule.Piece piece : pieces) {
            if (piece.layer().isWhole()) {
                return null;
            }
            used |= piece.layer().mask();
            compute = Math.max(compute, piece.layer().compute());
            mig |= piece.layer().isMig();
        }
        return new WindowUse(pieces, used, compute, mig);
    }

    private static int migClass(WindowUse use, Layer before, Layer after) {
        if (use.mig()) {
            return 0;
        }
        if (before.isMig() || after.isMig()) {
            return 1;
        }
        return before.isEmpty() && after.isEmpty() ? 2 : 3;
    }

    /** The unit at {@code slice} with what the rule weighs, or null when the slice is not free throughout. */
    private Candidate migAt(
            GpuAddress gpu,
            String bookingId,
            UnitKind.Mig kind,
            GpuInstanceProfile profile,
            int slice,
            WindowUse use,
            int gpuClass,
            Layer before,
            Layer after) {
        Held unit = Held.mig(bookingId, profile, slice);
        // Slices used anywhere in the window are a conflict somewhere in it; free ones need a valid layout in every
        // piece (GpuSchedule.firstConflict's rule, on the pieces already read).
        if ((use.used() & unit.mask()) != 0 || !validThroughout(use.pieces(), unit)) {
            return null;
        }
        int reuse = (before.runs(kind, slice) ? 1 : 0) + (after.runs(kind, slice) ? 1 : 0);
        int displaced = before.displaced(unit.mask(), kind, slice) + after.displaced(unit.mask(), kind, slice);
        List<Integer> room = rules.room(use.used() | unit.mask(), use.compute() + profile.computeSlices());
        return new Candidate(gpu, unit, gpuClass, reuse, displaced, Long.bitCount(use.used()), room);
    }

    private boolean validThroughout(List<GpuSchedule.Piece> pieces, Held unit) {
        for (GpuSchedule.Piece piece : pieces) {
            if (!rules.isValid(piece.layer().layoutWith(unit))) {
                return false;
            }
        }
        return true;
    }
}
