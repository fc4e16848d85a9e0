package io.gpuaas.events.geometry;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How one GPU model splits into MIG instances: its compute and memory slices and the GPU instance profiles it
 * offers with their placements. A <em>layout</em> is the list of instances one GPU runs; it is valid when every
 * instance starts where its profile may start, fits in the memory slices, no two share a memory slice, the compute
 * slices add up to at most the GPU's, no profile has more instances than the GPU holds, and at most one instance is a
 * {@code +me} profile (its media engines are not shared).
 *
 * <p><b>Weight.</b> A GPU-hour is shared by the instances of the layout the GPU runs, in proportion to the memory
 * slices each occupies; slices the layout leaves unusable are shared the same way ({@link #weightIn}), so every
 * layout adds up to exactly one GPU. Memory slices, not the {@code <N>g} compute slices, because they are what a
 * placement takes from the others (NVML places instances on memory slices) and they track the SMs an instance gets
 * better: on an H200 a 4g.71gb has 64 SMs and a 3g.71gb 60, both four memory slices; a 2g.35gb 32 and a 1g.35gb
 * 26, both two. A static pool runs one profile alone on its GPUs, at most {@link #mostInstances k} per GPU, so each
 * unit weighs {@code 1/k} ({@link #staticWeight}).
 */
public final class GpuGeometry {

    private static final Pattern COMPUTE_INSTANCE = Pattern.compile("\\d+c\\.(.+)");

    private final List<String> models;
    private final int computeSlices;
    private final int memorySlices;
    private final Map<String, GpuInstanceProfile> profiles;
    private final String source;
    private final Map<String, Integer> mostInstances = new HashMap<>();

    /**
     * A geometry of the GPU {@code models} (names as {@code nvidia-smi} prints them, several when variants share
     * it) with {@code profiles} in {@code nvidia-smi}'s order; {@code source} says where they were read.
     *
     * @throws IllegalArgumentException when a profile does not fit the slices or two share a name
     */
    public GpuGeometry(
            List<String> models,
            int computeSlices,
            int memorySlices,
            List<GpuInstanceProfile> profiles,
            String source) {
        this.models = List.copyOf(models);
        this.computeSlices = computeSlices;
        this.memorySlices = memorySlices;
        this.source = source;
        if (this.models.isEmpty() || computeSlices < 1 || memorySlices < 1 || memorySlices > 62) {
            throw new IllegalArgumentException("a GPU geometry needs a model and 1..62 slices: " + models);
        }
        Map<String, GpuInstanceProfile> byName = new LinkedHashMap<>();
        for (GpuInstanceProfile p : profiles) {
            if (p.computeSlices() > computeSlices
                    || p.starts().stream().anyMatch(s -> s < 0 || s + p.memorySlices() > memorySlices)) {
                throw new IllegalArgumentException(this.models.getFirst() + ": profile " + p.name() + " does not fit "
                        + computeSlices + " compute and " + memorySlices + " memory slices");
            }
            if (byName.put(p.name(), p) != null) {
                throw new IllegalArgumentException(this.models.getFirst() + ": duplicate profile " + p.name());
            }
        }
        this.profiles = byName;
        for (GpuInstanceProfile p : byName.values()) {
            mostInstances.put(p.name(), Layouts.homogeneous(this, p).size());
        }
    }

    /** The model names this geometry is for, the first as the catalog names it. */
    public List<String> models() {
        return models;
    }

    /** Compute slices of the whole GPU (7 on the A100/H100/H200 class, 4 on an A30). */
    public int computeSlices() {
        return computeSlices;
    }

    /** Memory slices of the whole GPU (8 on the A100/H100/H200 class, 4 on an A30). */
    public int memorySlices() {
        return memorySlices;
    }

    /** Every profile, in {@code nvidia-smi}'s order. */
    public List<GpuInstanceProfile> profiles() {
        return List.copyOf(profiles.values());
    }

    /** Where the profiles were read (a readout or NVIDIA's MIG user guide). */
    public String source() {
        return source;
    }

    /**
     * The GPU instance profile {@code name} names: the profile itself, or for a compute-instance profile
     * {@code <C>c.<profile>} the GPU instance profile it runs in (a compute instance shares its GPU instance's
     * slices).
     */
    public Optional<GpuInstanceProfile> profile(String name) {
        if (name == null) {
            return Optional.empty();
        }
        GpuInstanceProfile direct = profiles.get(name);
        Matcher ci = COMPUTE_INSTANCE.matcher(name);
        if (direct == null && ci.matches()) {
            return Optional.ofNullable(profiles.get(ci.group(1)));
        }
        return Optional.ofNullable(direct);
    }

    /** What is wrong with {@code layout} on this GPU, empty when it is valid. */
    public List<String> violations(List<MigPlacement> layout) {
        return Layouts.violations(this, layout);
    }

    /** Whether one GPU of this model can run {@code layout}. */
    public boolean isValid(List<MigPlacement> layout) {
        return violations(layout).isEmpty();
    }

    /**
     * {@code k}: the most instances of {@code profile} one GPU holds when it runs that profile alone (7 × 1g.18gb,
     * 4 × 1g.35gb, 3 × 2g.35gb, 2 × 3g.71gb, 1 × 4g.71gb on an H200), from the placements.
     *
     * @throws IllegalArgumentException when the GPU offers no such profile
     */
    public int mostInstances(String profile) {
        return mostInstances.get(require(profile).name());
    }

    /**
     * The share of one GPU each instance of {@code layout} is, in the layout's order: its memory slices over the
     * memory slices of all the layout's instances. The shares of any valid layout add up to one.
     *
     * @throws IllegalArgumentException when {@code layout} is empty or not valid on this GPU
     */
    public List<Double> weightIn(List<MigPlacement> layout) {
        List<String> wrong = violations(layout);
        if (layout.isEmpty() || !wrong.isEmpty()) {
            throw new IllegalArgumentException(models.getFirst() + ": no weight for layout " + layout + " "
                    + (layout.isEmpty() ? "(empty)" : wrong));
        }
        int used = layout.stream()
                .mapToInt(i -> require(i.profile()).memorySlices())
                .sum();
        List<Double> weights = new ArrayList<>(layout.size());
        layout.forEach(i -> weights.add((double) require(i.profile()).memorySlices() / used));
        return weights;
    }

    /**
     * The weight of one unit of a static pool of {@code profile}: the profile laid out alone, {@link #mostInstances
     * k} to a GPU, so {@code 1/k} ({@link #weightIn} of that layout).
     */
    public double staticWeight(String profile) {
        return weightIn(Layouts.homogeneous(this, require(profile))).getFirst();
    }

    /** Every valid non-empty layout of one GPU, each ordered by start, enumerated from the placements. */
    public List<List<MigPlacement>> layouts() {
        return Layouts.all(this);
    }

    GpuInstanceProfile require(String profile) {
        return profile(profile)
                .orElseThrow(() -> new IllegalArgumentException(models.getFirst() + " offers no MIG profile " + profile
                        + " (it offers " + String.join(", ", profiles.keySet()) + ")"));
    }

    @Override
    public String toString() {
        return models.getFirst();
    }
}
