package io.gpuaas.events.geometry;

/**
 * One GPU instance of a layout: a profile placed at a memory slice, as {@code nvidia-smi mig -lgi} shows it in its
 * Placement Start column (and {@code -cgi <id>:<start>} creates it).
 *
 * @param profile the profile name, e.g. {@code 2g.35gb}
 * @param start   the first memory slice it occupies
 */
public record MigPlacement(String profile, int start) {

    /** The instance of {@code profile} at {@code start}. */
    public static MigPlacement of(String profile, int start) {
        return new MigPlacement(profile, start);
    }

    @Override
    public String toString() {
        return profile + "@" + start;
    }
}
