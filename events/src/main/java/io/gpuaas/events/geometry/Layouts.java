package io.gpuaas.events.geometry;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Layout checks and enumeration over one {@link GpuGeometry}'s placements. */
final class Layouts {

    /** The suffix of a profile that takes the GPU's media engines (decoders, JPEG, OFA), which are not shared. */
    static final String MEDIA_EXTENSIONS = "+me";

    private Layouts() {}

    static List<String> violations(GpuGeometry gpu, List<MigPlacement> layout) {
        List<String> wrong = new ArrayList<>();
        long used = 0;
        int compute = 0;
        Map<String, Integer> count = new HashMap<>();
        int mediaExtended = 0;
        for (MigPlacement instance : layout) {
            Optional<GpuInstanceProfile> found = gpu.profile(instance.profile());
            if (found.isEmpty()) {
                wrong.add(gpu + " offers no MIG profile " + instance.profile());
                continue;
            }
            GpuInstanceProfile p = found.get();
            if (!p.starts().contains(instance.start())) {
                wrong.add(instance + " may start only at " + p.starts());
                continue;
            }
            long mask = p.memoryMask(instance.start());
            if ((used & mask) != 0) {
                wrong.add(instance + " overlaps another instance's memory slices");
            }
            used |= mask;
            compute += p.computeSlices();
            if (count.merge(p.name(), 1, Integer::sum) == p.maxInstances() + 1) {
                wrong.add("a GPU holds at most " + p.maxInstances() + " × " + p.name());
            }
            if (p.name().endsWith(MEDIA_EXTENSIONS) && ++mediaExtended == 2) {
                wrong.add("a GPU's media engines go to one " + MEDIA_EXTENSIONS + " instance only");
            }
        }
        if (compute > gpu.computeSlices()) {
            wrong.add(compute + " compute slices exceed the GPU's " + gpu.computeSlices());
        }
        return wrong;
    }

    /** The layout of the most instances of {@code profile} alone: earliest starts first (optimal, equal sizes). */
    static List<MigPlacement> homogeneous(GpuGeometry gpu, GpuInstanceProfile profile) {
        List<MigPlacement> layout = new ArrayList<>();
        int free = 0;
        int compute = 0;
        for (int start : profile.starts().stream().sorted().toList()) {
            if (start >= free
                    && layout.size() < profile.maxInstances()
                    && compute + profile.computeSlices() <= gpu.computeSlices()) {
                layout.add(MigPlacement.of(profile.name(), start));
                free = start + profile.memorySlices();
                compute += profile.computeSlices();
            }
        }
        return layout;
    }

    static List<List<MigPlacement>> all(GpuGeometry gpu) {
        List<List<MigPlacement>> out = new ArrayList<>();
        extend(gpu, 0, new ArrayList<>(), out);
        out.removeIf(List::isEmpty);
        return out;
    }

    // Instances never share a memory slice, so every layout is a sequence of instances ordered by start: at each
    // slice, either leave it empty or start one instance there, and keep the branches that stay valid.
    private static void extend(GpuGeometry gpu, int slice, List<MigPlacement> layout, List<List<MigPlacement>> out) {
        if (slice >= gpu.memorySlices()) {
            out.add(List.copyOf(layout));
            return;
        }
        extend(gpu, slice + 1, layout, out);
        for (GpuInstanceProfile p : gpu.profiles()) {
            if (p.starts().contains(slice)) {
                layout.add(MigPlacement.of(p.name(), slice));
                if (violations(gpu, layout).isEmpty()) {
                    extend(gpu, slice + p.memorySlices(), layout, out);
                }
                layout.removeLast();
            }
        }
    }
}
