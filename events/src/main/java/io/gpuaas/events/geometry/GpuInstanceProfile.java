package io.gpuaas.events.geometry;

import java.util.List;

/**
 * One MIG GPU instance profile of a GPU model, as {@code nvidia-smi mig -lgip} and {@code -lgipp} print it.
 *
 * @param name          profile name without the {@code MIG } prefix, e.g. {@code 3g.71gb} or {@code 1g.18gb+me}
 * @param id            the profile id ({@code -lgip}'s ID column, {@code -cgi}'s argument)
 * @param computeSlices the GPU's compute slices it takes (the {@code <N>g} of its name)
 * @param memorySlices  the GPU's memory slices it takes (the placement size after the colon)
 * @param starts        the memory slices it may start at (the placement set before the colon), ascending
 * @param maxInstances  the most instances of it one GPU holds ({@code -lgip}'s Total): 1 for a {@code +me} profile,
 *                      whose media engines are not shared, else what its placements allow
 */
public record GpuInstanceProfile(
        String name, int id, int computeSlices, int memorySlices, List<Integer> starts, int maxInstances) {

    /** Rejects a profile without name, slices or starts. */
    public GpuInstanceProfile {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a GPU instance profile needs a name");
        }
        if (computeSlices < 1 || memorySlices < 1 || maxInstances < 1) {
            throw new IllegalArgumentException(
                    "profile " + name + ": compute slices, memory slices and instances must be >= 1");
        }
        starts = List.copyOf(starts == null ? List.of() : starts);
        if (starts.isEmpty()) {
            throw new IllegalArgumentException("profile " + name + ": no placement starts");
        }
    }

    /** The memory slices {@code [start, start + memorySlices)} an instance starting at {@code start} occupies. */
    long memoryMask(int start) {
        return ((1L << memorySlices) - 1) << start;
    }
}
