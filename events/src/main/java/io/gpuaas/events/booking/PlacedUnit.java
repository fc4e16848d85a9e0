package io.gpuaas.events.booking;

/**
 * Where one unit of a booking on a flexible pool sits for the booking's whole window: a GPU of a node, and for a MIG
 * unit its profile and the memory slice its GPU instance starts at ({@code nvidia-smi mig -lgipp} placement).
 *
 * @param node    Kubernetes node name
 * @param gpu     GPU index on the node, as {@code nvidia-smi} numbers it (0-based)
 * @param profile MIG profile of the unit, e.g. {@code 3g.71gb}, or null for a whole GPU in non-MIG mode
 * @param start   first memory slice of the GPU instance, or null for a whole GPU
 */
public record PlacedUnit(String node, int gpu, String profile, Integer start) {

    public PlacedUnit {
        if (node == null || node.isBlank()) {
            throw new IllegalArgumentException("a placed unit needs a node");
        }
        if (gpu < 0) {
            throw new IllegalArgumentException("GPU index must be >= 0, got " + gpu);
        }
        if ((profile == null) != (start == null)) {
            throw new IllegalArgumentException("a MIG unit has a profile and a start slice, a whole GPU neither");
        }
        if (start != null && start < 0) {
            throw new IllegalArgumentException("start slice must be >= 0, got " + start);
        }
    }

    /** A whole GPU (non-MIG mode). */
    public static PlacedUnit wholeGpu(String node, int gpu) {
        return new PlacedUnit(node, gpu, null, null);
    }

    /** A MIG GPU instance of {@code profile} starting at memory slice {@code start}. */
    public static PlacedUnit mig(String node, int gpu, String profile, int start) {
        return new PlacedUnit(node, gpu, profile, start);
    }

    /** Whether this unit holds its GPU in non-MIG mode. */
    public boolean whole() {
        return profile == null;
    }
}
