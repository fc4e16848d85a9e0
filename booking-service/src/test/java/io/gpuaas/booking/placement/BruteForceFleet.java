package io.gpuaas.booking.placement;

import io.gpuaas.events.geometry.GpuGeometry;
import io.gpuaas.events.geometry.GpuInstanceProfile;
import io.gpuaas.events.geometry.MigPlacement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An independent model of a fleet's occupancy for tests: every booked unit with its window, checked per GPU and per
 * 15-minute step by counting memory slices and compute slices and asking {@link GpuGeometry#isValid} itself. It shares
 * no code with the planner beyond the value types. Public for the decider's tests on flexible pools.
 */
public final class BruteForceFleet {

    public static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
    public static final Duration STEP = Duration.ofMinutes(15);

    record Unit(String bookingId, UnitPlacement placement, int fromStep, int toStep) {}

    private final GpuGeometry geometry;
    private final List<GpuAddress> gpus;
    private final List<Unit> units = new ArrayList<>();

    public BruteForceFleet(GpuGeometry geometry, List<GpuAddress> gpus) {
        this.geometry = geometry;
        this.gpus = List.copyOf(gpus);
    }

    public static Instant at(int step) {
        return T0.plus(STEP.multipliedBy(step));
    }

    public void add(String bookingId, List<UnitPlacement> placements, int fromStep, int toStep) {
        placements.forEach(p -> units.add(new Unit(bookingId, p, fromStep, toStep)));
    }

    void remove(String bookingId) {
        units.removeIf(u -> u.bookingId().equals(bookingId));
    }

    /** What breaks the rules anywhere in steps {@code [0, horizon)}: empty when nothing does. */
    public List<String> violations(int horizon) {
        List<String> wrong = new ArrayList<>();
        for (GpuAddress gpu : gpus) {
            for (int step = 0; step < horizon; step++) {
                String problem = problemAt(active(gpu, step, List.of()));
                if (problem != null) {
                    wrong.add(gpu + " at step " + step + ": " + problem);
                }
            }
        }
        return wrong;
    }

    /** Whether {@code extra} could run on {@code gpu} over steps {@code [from, to)} beside what is booked. */
    boolean fits(GpuAddress gpu, List<UnitPlacement> extra, int from, int to) {
        for (int step = from; step < to; step++) {
            if (problemAt(active(gpu, step, extra)) != null) {
                return false;
            }
        }
        return true;
    }

    /** Whether one unit of {@code kind} has some GPU and start free over the whole of {@code [from, to)}. */
    public boolean someSingleFits(UnitKind kind, int from, int to) {
        for (GpuAddress gpu : gpus) {
            for (int start : starts(kind)) {
                if (fits(gpu, List.of(new UnitPlacement(gpu, kind, start)), from, to)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The most units of {@code kind} that could be added over {@code [from, to)}: every subset of starts per GPU. */
    int mostUnits(UnitKind kind, int from, int to) {
        List<Integer> starts = starts(kind);
        int total = 0;
        for (GpuAddress gpu : gpus) {
            int best = 0;
            for (int subset = 1; subset < 1 << starts.size(); subset++) {
                List<UnitPlacement> extra = new ArrayList<>();
                for (int i = 0; i < starts.size(); i++) {
                    if ((subset & 1 << i) != 0) {
                        extra.add(new UnitPlacement(gpu, kind, starts.get(i)));
                    }
                }
                if (extra.size() > best && fits(gpu, extra, from, to)) {
                    best = extra.size();
                }
            }
            total += best;
        }
        return total;
    }

    /** The layout every GPU runs at {@code step}, as the planner should report it. */
    public Map<GpuAddress, GpuLayout> layoutsAt(int step) {
        Map<GpuAddress, GpuLayout> out = new TreeMap<>();
        for (GpuAddress gpu : gpus) {
            List<Unit> here = active(gpu, step, List.of());
            if (here.isEmpty()) {
                out.put(gpu, new GpuLayout.Idle());
            } else if (here.getFirst().placement().kind() instanceof UnitKind.WholeGpu) {
                out.put(gpu, new GpuLayout.Whole(here.getFirst().bookingId()));
            } else {
                out.put(gpu, new GpuLayout.Mig(layout(here)));
            }
        }
        return out;
    }

    private List<Integer> starts(UnitKind kind) {
        return switch (kind) {
            case UnitKind.WholeGpu w -> List.of(0);
            case UnitKind.Mig m -> geometry.profile(m.profile()).orElseThrow().starts();
        };
    }

    private List<Unit> active(GpuAddress gpu, int step, List<UnitPlacement> extra) {
        List<Unit> here = new ArrayList<>();
        for (Unit u : units) {
            if (u.placement().gpu().equals(gpu) && u.fromStep() <= step && step < u.toStep()) {
                here.add(u);
            }
        }
        extra.forEach(p -> here.add(new Unit("extra", p, step, step + 1)));
        return here;
    }

    private String problemAt(List<Unit> here) {
        long wholes = here.stream()
                .filter(u -> u.placement().kind() instanceof UnitKind.WholeGpu)
                .count();
        if (wholes > 0) {
            return here.size() == 1 ? null : "a whole GPU shares its GPU: " + here;
        }
        int[] holders = new int[geometry.memorySlices()];
        int compute = 0;
        for (Unit u : here) {
            GpuInstanceProfile p =
                    geometry.profile(u.placement().kind().toString()).orElseThrow();
            compute += p.computeSlices();
            for (int s = u.placement().startSlice(); s < u.placement().startSlice() + p.memorySlices(); s++) {
                if (s >= holders.length || ++holders[s] > 1) {
                    return "memory slice " + s + " held twice or beyond the GPU: " + here;
                }
            }
        }
        if (compute > geometry.computeSlices()) {
            return compute + " compute slices: " + here;
        }
        List<MigPlacement> layout = layout(here);
        return geometry.isValid(layout) ? null : "invalid layout " + layout + ": " + geometry.violations(layout);
    }

    private static List<MigPlacement> layout(List<Unit> here) {
        return here.stream()
                .map(u -> MigPlacement.of(
                        u.placement().kind().toString(), u.placement().startSlice()))
                .sorted(Comparator.comparingInt(MigPlacement::start))
                .toList();
    }
}
