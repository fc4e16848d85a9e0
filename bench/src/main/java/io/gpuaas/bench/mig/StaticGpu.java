package io.gpuaas.bench.mig;

import io.gpuaas.events.geometry.GpuGeometry;
import io.gpuaas.events.geometry.MigPlacement;
import java.util.List;

/**
 * One kind of GPU in a static layout: the instances it is set up with once and keeps, or a whole GPU in non-MIG mode.
 * A static pool of deploy/local's {@code default-pools.json} is a set of GPUs of one such kind with a single profile,
 * as many instances as fit.
 *
 * @param name      how the report names it
 * @param instances its MIG instances, empty for a whole GPU
 */
record StaticGpu(String name, List<MigPlacement> instances) {

    StaticGpu {
        instances = List.copyOf(instances);
    }

    static final StaticGpu WHOLE = new StaticGpu("whole", List.of());
    static final StaticGpu SEVEN_1G = new StaticGpu("7×1g.18gb", starts("1g.18gb", 0, 1, 2, 3, 4, 5, 6));
    static final StaticGpu THREE_2G = new StaticGpu("3×2g.35gb", starts("2g.35gb", 0, 2, 4));
    static final StaticGpu THREE_2G_ONE_1G = new StaticGpu(
            "3×2g.35gb+1g.18gb",
            List.of(
                    MigPlacement.of("2g.35gb", 0),
                    MigPlacement.of("2g.35gb", 2),
                    MigPlacement.of("2g.35gb", 4),
                    MigPlacement.of("1g.18gb", 6)));
    static final StaticGpu TWO_3G = new StaticGpu("2×3g.71gb", starts("3g.71gb", 0, 4));
    static final StaticGpu FOUR_3G =
            new StaticGpu("4g.71gb+3g.71gb", List.of(MigPlacement.of("4g.71gb", 0), MigPlacement.of("3g.71gb", 4)));

    /** The kinds today's local static pools use: whole GPUs and one profile per MIG GPU. */
    static final List<StaticGpu> TODAY = List.of(WHOLE, SEVEN_1G, THREE_2G, TWO_3G);

    /** The kinds the layout search mixes. */
    static final List<StaticGpu> SEARCHED = List.of(WHOLE, SEVEN_1G, THREE_2G_ONE_1G, TWO_3G, FOUR_3G);

    boolean whole() {
        return instances.isEmpty();
    }

    /** Throws unless {@code geometry} allows this layout (every kind here is an H200 layout). */
    StaticGpu checkedOn(GpuGeometry geometry) {
        if (!whole() && !geometry.isValid(instances)) {
            throw new IllegalArgumentException(
                    name + " is not a layout of " + geometry + ": " + geometry.violations(instances));
        }
        return this;
    }

    private static List<MigPlacement> starts(String profile, int... starts) {
        return java.util.Arrays.stream(starts)
                .mapToObj(s -> MigPlacement.of(profile, s))
                .toList();
    }
}
