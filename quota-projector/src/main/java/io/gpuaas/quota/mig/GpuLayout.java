package io.gpuaas.quota.mig;

import io.gpuaas.events.geometry.GpuGeometry;
import io.gpuaas.events.geometry.MigPlacement;
import io.gpuaas.events.pool.Pool;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * What one GPU runs: non-MIG mode (a whole GPU, {@code nvidia.com/gpu}) or MIG mode with its GPU instances, each a
 * profile at a start slice, kept ordered by start so equal layouts are equal records.
 *
 * @param mig       whether MIG mode is on
 * @param instances the GPU instances, ordered by start; empty when MIG is off
 */
public record GpuLayout(boolean mig, List<MigPlacement> instances) {

    /** A whole GPU in non-MIG mode. */
    public static final GpuLayout WHOLE = new GpuLayout(false, List.of());

    public GpuLayout {
        instances = instances.stream()
                .sorted(Comparator.comparingInt(MigPlacement::start).thenComparing(MigPlacement::profile))
                .toList();
        if (!mig && !instances.isEmpty()) {
            throw new IllegalArgumentException("a GPU in non-MIG mode has no GPU instances: " + instances);
        }
    }

    /** MIG mode with {@code instances}. */
    public static GpuLayout mig(List<MigPlacement> instances) {
        return new GpuLayout(true, instances);
    }

    /** Whether {@code geometry} can run this layout (non-MIG mode always can). */
    public boolean validOn(GpuGeometry geometry) {
        return !mig || geometry.isValid(instances);
    }

    /** Whether this layout already offers everything {@code needed} asks for, at the same slices. */
    public boolean covers(GpuLayout needed) {
        return mig == needed.mig && Set.copyOf(instances).containsAll(needed.instances);
    }

    /** The extended resources a pod can request from this GPU. */
    public Set<String> resources() {
        if (!mig) {
            return Set.of(Pool.WHOLE_GPU_RESOURCE);
        }
        return instances.stream()
                .map(i -> "nvidia.com/mig-" + i.profile())
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** mig-parted's {@code mig-devices}: instances per profile. */
    public SortedMap<String, Integer> devices() {
        SortedMap<String, Integer> counts = new TreeMap<>();
        instances.forEach(i -> counts.merge(i.profile(), 1, Integer::sum));
        return counts;
    }

    /** {@code whole}, or the instances as {@code profile@start} joined by commas (the canonical form). */
    public String canonical() {
        return mig
                ? "mig[" + instances.stream().map(MigPlacement::toString).collect(Collectors.joining(",")) + "]"
                : "whole";
    }
}
