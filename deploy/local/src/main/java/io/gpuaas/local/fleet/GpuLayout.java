package io.gpuaas.local.fleet;

import io.gpuaas.events.geometry.MigPlacement;
import java.util.Comparator;
import java.util.List;

/**
 * What one physical GPU of a flexible node runs: the whole GPU (MIG disabled), or MIG enabled with these GPU
 * instances, each a profile at a start memory slice. Instances are kept ordered by start, so two layouts of the same
 * instances are equal however they were listed.
 *
 * @param migEnabled whether the GPU is in MIG mode
 * @param instances  its GPU instances (empty when MIG is disabled; may be empty in MIG mode too)
 */
public record GpuLayout(boolean migEnabled, List<MigPlacement> instances) {

    /** A GPU in non-MIG mode, handed out whole as {@code nvidia.com/gpu}. */
    public static final GpuLayout WHOLE = new GpuLayout(false, List.of());

    public GpuLayout {
        if (!migEnabled && !instances.isEmpty()) {
            throw new IllegalArgumentException("a GPU with MIG disabled runs no MIG instances: " + instances);
        }
        instances = instances.stream()
                .sorted(Comparator.comparingInt(MigPlacement::start).thenComparing(MigPlacement::profile))
                .toList();
    }

    /** MIG mode with {@code instances}. */
    public static GpuLayout mig(List<MigPlacement> instances) {
        return new GpuLayout(true, instances);
    }

    @Override
    public String toString() {
        return migEnabled ? "mig" + instances : "whole";
    }
}
