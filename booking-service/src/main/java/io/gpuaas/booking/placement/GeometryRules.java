package io.gpuaas.booking.placement;

import io.gpuaas.events.geometry.GpuGeometry;
import io.gpuaas.events.geometry.GpuInstanceProfile;
import io.gpuaas.events.geometry.MigPlacement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The placement rules of one GPU model, from its {@link GpuGeometry}: which layouts a GPU may run (the geometry's own
 * enumeration, held as a set so a check costs one lookup) and how much room a partly used GPU keeps. The set is only
 * ever asked for membership, never iterated, so its hash order cannot leak into a placement.
 */
final class GeometryRules {

    private final GpuGeometry geometry;
    private final Set<List<MigPlacement>> validLayouts;
    private final List<GpuInstanceProfile> largestFirst;

    GeometryRules(GpuGeometry geometry) {
        this.geometry = geometry;
        this.validLayouts = new HashSet<>(geometry.layouts());
        this.largestFirst = geometry.profiles().stream()
                .sorted(Comparator.comparingInt(GpuInstanceProfile::memorySlices)
                        .thenComparingInt(GpuInstanceProfile::computeSlices)
                        .reversed()
                        .thenComparing(GpuInstanceProfile::name))
                .toList();
    }

    GpuGeometry geometry() {
        return geometry;
    }

    /** The GPU instance profile named exactly {@code name} (not a compute-instance name). */
    Optional<GpuInstanceProfile> profile(String name) {
        return geometry.profile(name).filter(p -> p.name().equals(name));
    }

    long allSlices() {
        return (1L << geometry.memorySlices()) - 1;
    }

    static long mask(GpuInstanceProfile profile, int start) {
        return ((1L << profile.memorySlices()) - 1) << start;
    }

    /** Whether a GPU may run {@code layout}, given ordered by start (empty: yes). */
    boolean isValid(List<MigPlacement> layout) {
        return layout.isEmpty() || validLayouts.contains(layout);
    }

    /**
     * How much a GPU with {@code usedSlices} and {@code usedCompute} taken still holds: per profile, largest first,
     * the most instances of that profile alone that fit in the free slices and compute. Compared lexicographically
     * ({@link #compareRoom}), a placement that keeps a larger profile possible keeps more room.
     */
    List<Integer> room(long usedSlices, int usedCompute) {
        List<Integer> room = new ArrayList<>(largestFirst.size());
        for (GpuInstanceProfile p : largestFirst) {
            int fit = 0;
            long used = usedSlices;
            int compute = usedCompute;
            for (int start : p.starts()) {
                long m = mask(p, start);
                if ((used & m) == 0
                        && compute + p.computeSlices() <= geometry.computeSlices()
                        && fit < p.maxInstances()) {
                    used |= m;
                    compute += p.computeSlices();
                    fit++;
                }
            }
            room.add(fit);
        }
        return room;
    }

    static int compareRoom(List<Integer> a, List<Integer> b) {
        for (int i = 0; i < a.size(); i++) {
            int c = Integer.compare(a.get(i), b.get(i));
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }
}
