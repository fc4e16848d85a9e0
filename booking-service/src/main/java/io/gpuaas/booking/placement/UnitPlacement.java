package io.gpuaas.booking.placement;

/**
 * Where one unit of a booking runs for the booking's whole window.
 *
 * @param gpu        the GPU
 * @param kind       the MIG profile, or the whole GPU
 * @param startSlice the first memory slice of the MIG instance (its placement start); 0 for a whole GPU
 */
public record UnitPlacement(GpuAddress gpu, UnitKind kind, int startSlice) {

    /** Rejects a missing GPU or kind, a negative start, or a whole GPU not at slice 0. */
    public UnitPlacement {
        if (gpu == null || kind == null) {
            throw new IllegalArgumentException("a unit placement needs a GPU and a kind");
        }
        if (startSlice < 0 || (kind instanceof UnitKind.WholeGpu && startSlice != 0)) {
            throw new IllegalArgumentException(kind + " on " + gpu + " cannot start at slice " + startSlice);
        }
    }

    @Override
    public String toString() {
        return kind + "@" + gpu + ":" + startSlice;
    }
}
