package io.gpuaas.bench.mig;

import io.gpuaas.booking.placement.GpuAddress;
import io.gpuaas.booking.placement.UnitKind;
import io.gpuaas.booking.placement.UnitPlacement;
import io.gpuaas.events.geometry.GpuGeometry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How often a flexible fleet's GPUs must be laid out again, from the placements in start order (book-now).
 *
 * <p>Each GPU carries the layout it was last set up with: non-MIG mode, or a set of MIG instances. An instance stays
 * set up after its booking ends, until a unit needs its slices, so a unit that lands on an instance of its own
 * profile at its own start reuses it. A GPU is <b>re-laid out</b> at an instant when a unit beginning then needs a
 * different set-up: it runs MIG and the unit is a whole GPU, or it runs non-MIG and the unit is a MIG instance (a
 * mode change), or the unit's slices overlap an instance of another profile or start (that instance is destroyed).
 * Several units beginning on one GPU at one instant count once. A GPU starts in non-MIG mode, so its first MIG unit
 * counts. Creating an instance on slices no instance was set up on is not a re-layout; it is counted apart.
 */
final class LayoutChanges {

    /** What one GPU was last set up with: non-MIG (whole), or MIG instances by start slice. */
    private static final class SetUp {
        boolean whole = true;
        final Map<Integer, String> instances = new LinkedHashMap<>();
    }

    private final GpuGeometry geometry;
    private final Map<GpuAddress, SetUp> setUp = new HashMap<>();
    private final Map<GpuAddress, Long> lastRelayout = new HashMap<>();
    private final List<long[]> relayouts = new ArrayList<>(); // {trace second, GPU number}
    private final Map<GpuAddress, Integer> gpuNumbers = new HashMap<>();
    private long created;

    LayoutChanges(GpuGeometry geometry) {
        this.geometry = geometry;
    }

    /** A booking's units, all beginning at trace second {@code t}. */
    void placed(long t, List<UnitPlacement> units) {
        Map<GpuAddress, List<UnitPlacement>> byGpu = new LinkedHashMap<>();
        units.forEach(
                u -> byGpu.computeIfAbsent(u.gpu(), g -> new ArrayList<>()).add(u));
        byGpu.forEach((gpu, onGpu) -> {
            SetUp s = setUp.computeIfAbsent(gpu, g -> new SetUp());
            boolean relaid = false;
            for (UnitPlacement u : onGpu) {
                relaid |= apply(s, u);
            }
            if (relaid && !Long.valueOf(t).equals(lastRelayout.get(gpu))) {
                lastRelayout.put(gpu, t);
                int number = gpuNumbers.computeIfAbsent(gpu, g -> gpuNumbers.size());
                relayouts.add(new long[] {t, number});
            }
        });
    }

    /** Sets the GPU up for {@code u}; whether that destroyed an instance or changed the mode. */
    private boolean apply(SetUp s, UnitPlacement u) {
        if (u.kind() instanceof UnitKind.Mig mig) {
            boolean relaid = s.whole;
            s.whole = false;
            if (mig.profile().equals(s.instances.get(u.startSlice()))) {
                return relaid;
            }
            long mask = mask(mig.profile(), u.startSlice());
            for (Iterator<Map.Entry<Integer, String>> it =
                            s.instances.entrySet().iterator();
                    it.hasNext(); ) {
                Map.Entry<Integer, String> i = it.next();
                if ((mask(i.getValue(), i.getKey()) & mask) != 0) {
                    it.remove();
                    relaid = true;
                }
            }
            s.instances.put(u.startSlice(), mig.profile());
            created++;
            return relaid;
        }
        boolean relaid = !s.whole;
        s.whole = true;
        s.instances.clear();
        return relaid;
    }

    private long mask(String profile, int start) {
        int slices = geometry.profile(profile).orElseThrow().memorySlices();
        return ((1L << slices) - 1) << start;
    }

    /** Re-layouts at trace seconds in {@code [from, to)}. */
    long relayouts(long from, long to) {
        return relayouts.stream().filter(r -> r[0] >= from && r[0] < to).count();
    }

    /** The most re-layouts one GPU had in one trace day ({@code day = second / 86,400}) within {@code [from, to)}. */
    long busiestGpuDay(long from, long to) {
        Map<String, Long> perGpuDay = new HashMap<>();
        relayouts.stream()
                .filter(r -> r[0] >= from && r[0] < to)
                .forEach(r -> perGpuDay.merge(r[1] + "/" + r[0] / 86_400, 1L, Long::sum));
        return perGpuDay.values().stream().mapToLong(Long::longValue).max().orElse(0);
    }

    /** Instances created over the whole replay (re-layouts included). */
    long created() {
        return created;
    }
}
