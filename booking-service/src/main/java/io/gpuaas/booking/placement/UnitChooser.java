package io.gpuaas.booking.placement;

import io.gpuaas.events.geometry.GpuInstanceProfile;
import java.util.Comparator;
import java.util.List;

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
 * <p>Cost per unit: the fleet's {@link SliceIndex} over the window, {@code O(B · G)} for {@code B} buckets, then for
 * each GPU it lets through the pieces in the window and every start of the profile, {@code O(C · (log n + k) · S)};
 * GPUs that cannot beat the best found so far are passed over before their starts are tried.
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

    /**
     * The best place for one unit of {@code kind} anywhere in {@code gpus}, or null when none is free throughout. Only
     * the GPUs the fleet's index lets through are read, and of those only the ones that can still beat the best so far
     * (see {@link #wholeBest} and {@link #cannotBeat}): the answer is the one a read of every GPU would give.
     */
    Candidate best(FleetGpus gpus, String bookingId, UnitKind kind, long start, long end) {
        int[] candidates = gpus.candidates(kind, start, end);
        return switch (kind) {
            case UnitKind.WholeGpu whole -> wholeBest(gpus, candidates, bookingId, start, end);
            case UnitKind.Mig mig -> migBest(gpus, candidates, bookingId, mig, start, end);
        };
    }

    /**
     * Whole GPUs tie on every key but their class and address, and come in address order: a GPU of no better class
     * than the best so far is passed over before its window is read, and the first fit of the best class (0) ends the
     * search.
     */
    private Candidate wholeBest(FleetGpus gpus, int[] candidates, String bookingId, long start, long end) {
        Candidate best = null;
        for (int g : candidates) {
            GpuSchedule schedule = gpus.schedule(g);
            int gpuClass = wholeClass(schedule.lastBefore(start), schedule.firstFrom(end));
            if (best != null && gpuClass >= best.gpuClass()) {
                continue;
            }
            Candidate c = wholeOn(gpus.address(g), schedule, bookingId, start, end, gpuClass);
            if (c != null) {
                best = c;
                if (gpuClass == 0) {
                    break;
                }
            }
        }
        return best;
    }

    private Candidate migBest(
            FleetGpus gpus, int[] candidates, String bookingId, UnitKind.Mig kind, long start, long end) {
        GpuInstanceProfile profile = rules.profile(kind.profile()).orElseThrow();
        Candidate best = null;
        boolean idleSeen = false;
        for (int g : candidates) {
            GpuSchedule schedule = gpus.schedule(g);
            if (schedule.isEmpty()) {
                // Every GPU holding nothing at any time gives the same candidate but for its address, so only the
                // first (the lowest address) can win.
                if (idleSeen) {
                    continue;
                }
                idleSeen = true;
            }
            Candidate c = migOn(gpus.address(g), schedule, bookingId, kind, profile, start, end, best);
            if (c != null && (best == null || BEST.compare(c, best) < 0)) {
                best = c;
            }
        }
        return best;
    }

    /** The best place for one unit of {@code kind} on this GPU, or null when no start is free throughout. */
    Candidate bestOn(GpuAddress gpu, GpuSchedule schedule, String bookingId, UnitKind kind, long start, long end) {
        return switch (kind) {
            case UnitKind.WholeGpu whole ->
                wholeOn(
                        gpu,
                        schedule,
                        bookingId,
                        start,
                        end,
                        wholeClass(schedule.lastBefore(start), schedule.firstFrom(end)));
            case UnitKind.Mig mig ->
                migOn(
                        gpu,
                        schedule,
                        bookingId,
                        mig,
                        rules.profile(mig.profile()).orElseThrow(),
                        start,
                        end,
                        null);
        };
    }

    private Candidate wholeOn(
            GpuAddress gpu, GpuSchedule schedule, String bookingId, long start, long end, int gpuClass) {
        Held unit = Held.whole(bookingId, rules);
        if (schedule.firstConflict(unit, start, end, rules) != null) {
            return null;
        }
        return new Candidate(gpu, unit, gpuClass, 0, 0, 0, List.of());
    }

    private static int wholeClass(Layer before, Layer after) {
        return before.isMig() || after.isMig() ? 2 : before.isWhole() || after.isWhole() ? 0 : 1;
    }

    /** What the GPU's pieces in the window hold: the slices used anywhere, the most compute slices, any MIG. */
    private record WindowUse(List<GpuSchedule.Piece> pieces, long used, int compute, boolean mig) {}

    /**
     * The best start for a MIG unit on this GPU, or null when none is free throughout or the GPU {@link #cannotBeat}
     * {@code best}.
     */
    private Candidate migOn(
            GpuAddress gpu,
            GpuSchedule schedule,
            String bookingId,
            UnitKind.Mig kind,
            GpuInstanceProfile profile,
            long start,
            long end,
            Candidate best) {
        WindowUse use = windowUse(schedule.pieces(start, end));
        if (use == null) {
            return null;
        }
        Layer before = schedule.lastBefore(start);
        Layer after = schedule.firstFrom(end);
        int gpuClass = migClass(use, before, after);
        if (best != null && cannotBeat(best, gpuClass, use, before, after)) {
            return null;
        }
        Candidate out = null;
        for (int slice : profile.starts()) {
            Candidate c = migAt(gpu, bookingId, kind, profile, slice, use, gpuClass, before, after);
            if (c != null && (out == null || BEST.compare(c, out) < 0)) {
                out = c;
            }
        }
        return out;
    }

    /**
     * Whether every start on a GPU loses to {@code best}, from what is the same for all its starts: the class, the
     * most reuse any start could give (one per MIG neighbour), no displacement at all, and the slices used in the
     * window. The GPU comes later in address order, so it wins no tie; on equal keys the room still decides, and it is
     * read.
     */
    private static boolean cannotBeat(Candidate best, int gpuClass, WindowUse use, Layer before, Layer after) {
        int c = Integer.compare(gpuClass, best.gpuClass());
        if (c == 0) {
            int mostReuse = (before.isMig() ? 1 : 0) + (after.isMig() ? 1 : 0);
            c = Integer.compare(best.reuse(), mostReuse);
        }
        if (c == 0) {
            c = Integer.compare(0, best.displaced());
        }
        if (c == 0) {
            c = Integer.compare(best.usedSlices(), Long.bitCount(use.used()));
        }
        return c > 0;
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
