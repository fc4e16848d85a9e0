package io.gpuaas.local.mig;

import io.gpuaas.events.geometry.GpuGeometry;
import io.gpuaas.events.geometry.GpuInstanceProfile;
import io.gpuaas.events.geometry.MigPlacement;
import io.gpuaas.local.fleet.GpuLayout;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What applying a mig-parted config does to a node's GPUs, computed without a server. mig-parted takes counts only;
 * the starts come from the {@link MigLayoutAnnotation} where it lists the same instances for that GPU and they form a
 * valid layout, else from the geometry: the largest profile first, each at the lowest start that still lets the rest
 * fit. A GPU no entry selects keeps its layout.
 */
public final class MigPlanner {

    private final GpuGeometry geometry;

    public MigPlanner(GpuGeometry geometry) {
        this.geometry = geometry;
    }

    /** The outcome of planning a config for one node. */
    public sealed interface Plan {}

    /**
     * The config can be applied.
     *
     * @param layouts the node's layout per GPU afterwards
     * @param changed the GPU indexes whose layout differs from now
     */
    public record Applicable(List<GpuLayout> layouts, Set<Integer> changed) implements Plan {}

    /** The config cannot be applied to this node; nothing changes. */
    public record Invalid(String reason) implements Plan {}

    /**
     * Plans {@code entries} for a node whose GPUs run {@code current}, with the annotation's {@code hints} (by GPU
     * index, possibly empty).
     */
    public Plan plan(List<GpuLayout> current, List<MigPartedConfig.Entry> entries, Map<Integer, GpuLayout> hints) {
        for (MigPartedConfig.Entry entry : entries) {
            if (entry.devices() != null) {
                Optional<Integer> missing = entry.devices().stream()
                        .filter(i -> i >= current.size())
                        .findFirst();
                if (missing.isPresent()) {
                    return new Invalid(
                            "selects GPU " + missing.get() + " but the node has " + current.size() + " GPUs");
                }
            }
        }
        List<GpuLayout> next = new ArrayList<>(current);
        Set<Integer> changed = new TreeSet<>();
        for (int gpu = 0; gpu < current.size(); gpu++) {
            final int index = gpu;
            List<MigPartedConfig.Entry> selecting =
                    entries.stream().filter(e -> e.selects(index)).toList();
            if (selecting.size() > 1) {
                return new Invalid("GPU " + gpu + " is selected by " + selecting.size() + " entries");
            }
            if (selecting.isEmpty()) {
                continue;
            }
            GpuOutcome outcome = layout(gpu, selecting.getFirst(), hints.get(gpu));
            if (outcome.refusal() != null) {
                return new Invalid(outcome.refusal());
            }
            next.set(gpu, outcome.layout());
            if (!outcome.layout().equals(current.get(gpu))) {
                changed.add(gpu);
            }
        }
        return new Applicable(List.copyOf(next), changed);
    }

    /** One GPU's layout under an entry, or why the entry cannot be laid out on it. */
    private record GpuOutcome(GpuLayout layout, String refusal) {

        static GpuOutcome of(GpuLayout layout) {
            return new GpuOutcome(layout, null);
        }

        static GpuOutcome refused(String refusal) {
            return new GpuOutcome(null, refusal);
        }
    }

    private GpuOutcome layout(int gpu, MigPartedConfig.Entry entry, GpuLayout hint) {
        if (!entry.migEnabled()) {
            return GpuOutcome.of(GpuLayout.WHOLE);
        }
        Map<String, Integer> counts = new TreeMap<>();
        entry.migDevices().forEach((profile, count) -> {
            if (count > 0) {
                counts.put(profile, count);
            }
        });
        for (String profile : counts.keySet()) {
            if (geometry.profiles().stream().noneMatch(p -> p.name().equals(profile))) {
                return GpuOutcome.refused("GPU " + gpu + ": " + geometry + " offers no MIG profile " + profile);
            }
        }
        if (hint != null && hint.migEnabled() && counts(hint).equals(counts) && geometry.isValid(hint.instances())) {
            return GpuOutcome.of(hint);
        }
        return firstFit(counts)
                .map(instances -> GpuOutcome.of(GpuLayout.mig(instances)))
                .orElseGet(() -> GpuOutcome.refused("GPU " + gpu + ": " + counts + " do not fit one " + geometry));
    }

    private static Map<String, Integer> counts(GpuLayout layout) {
        Map<String, Integer> counts = new TreeMap<>();
        layout.instances().forEach(i -> counts.merge(i.profile(), 1, Integer::sum));
        return counts;
    }

    /** The first valid layout of these instances: largest profile first, lowest starts first. */
    Optional<List<MigPlacement>> firstFit(Map<String, Integer> counts) {
        List<GpuInstanceProfile> wanted = new ArrayList<>();
        counts.forEach((name, count) -> {
            GpuInstanceProfile profile = geometry.profile(name).orElseThrow();
            for (int i = 0; i < count; i++) {
                wanted.add(profile);
            }
        });
        wanted.sort(Comparator.comparingInt(GpuInstanceProfile::memorySlices)
                .thenComparingInt(GpuInstanceProfile::computeSlices)
                .reversed()
                .thenComparing(GpuInstanceProfile::name));
        List<MigPlacement> layout = new ArrayList<>();
        return place(wanted, layout) ? Optional.of(List.copyOf(layout)) : Optional.empty();
    }

    private boolean place(List<GpuInstanceProfile> wanted, List<MigPlacement> layout) {
        if (layout.size() == wanted.size()) {
            return true;
        }
        GpuInstanceProfile next = wanted.get(layout.size());
        // Instances of one profile are interchangeable: each starts after the previous one, never before it.
        int after = layout.isEmpty() || !layout.getLast().profile().equals(next.name())
                ? -1
                : layout.getLast().start();
        for (int start : next.starts()) {
            if (start <= after) {
                continue;
            }
            layout.add(MigPlacement.of(next.name(), start));
            if (geometry.isValid(layout) && place(wanted, layout)) {
                return true;
            }
            layout.removeLast();
        }
        return false;
    }
}
