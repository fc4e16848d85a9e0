package io.gpuaas.events.pool;

import io.gpuaas.events.geometry.GpuGeometry;
import io.gpuaas.events.geometry.GpuGeometryCatalog;
import java.util.Locale;
import java.util.Optional;

/** The weight of a pool's unit and the checks of a pool against its GPU's geometry, for {@link Pool}. */
final class PoolWeight {

    private PoolWeight() {}

    static double of(String gpuModel, String migProfile) {
        if (migProfile == null || migProfile.isBlank()) {
            return 1.0;
        }
        Optional<GpuGeometry> gpu = GpuGeometryCatalog.shipped().forModel(gpuModel);
        return gpu.isPresent() ? gpu.get().staticWeight(migProfile) : computeShare(gpuModel, migProfile);
    }

    /**
     * Refuses a MIG profile the pool's GPU model does not offer, and a pool whose {@code gpus} cannot hold its
     * capacity; on a model the geometry catalog does not list, a MIG profile must at least name its {@code <N>g}, and
     * a MIG pool's {@code gpus} is not checked (its {@code k} is unknown).
     */
    static void check(String id, int capacity, String gpuModel, String migProfile, Integer gpus) {
        boolean mig = migProfile != null && !migProfile.isBlank();
        Optional<GpuGeometry> gpu = GpuGeometryCatalog.shipped().forModel(gpuModel);
        try {
            of(gpuModel, migProfile);
        } catch (IllegalArgumentException e) {
            String hint = gpu.isPresent() ? "" : " (expected <N>g.<memory>)";
            throw new IllegalArgumentException("pool " + id + ": " + e.getMessage() + hint, e);
        }
        if (gpus == null) {
            return;
        }
        if (gpus < 0) {
            throw new IllegalArgumentException("pool " + id + ": gpus must be >= 0");
        }
        if (!mig && capacity > gpus) {
            throw new IllegalArgumentException("pool " + id + ": " + capacity + " whole GPUs do not fit on " + gpus);
        }
        if (mig && gpu.isPresent()) {
            int k = gpu.get().mostInstances(migProfile);
            if (capacity > (long) gpus * k) {
                throw new IllegalArgumentException("pool " + id + ": " + capacity + " × " + migProfile
                        + " do not fit on " + gpus + " GPUs (a GPU holds at most " + k + ")");
            }
        }
    }

    // Before the geometry catalog, and still for a model it does not list: N of the GPU's compute slices.
    private static double computeShare(String gpuModel, String migProfile) {
        int slices = gpuModel != null && gpuModel.toUpperCase(Locale.ROOT).contains("A30") ? 4 : 7;
        for (String part : migProfile.split("\\.")) {
            if (part.length() > 1
                    && part.endsWith("g")
                    && part.chars().limit(part.length() - 1).allMatch(Character::isDigit)) {
                int n = Integer.parseInt(part.substring(0, part.length() - 1));
                if (n < 1 || n > slices) {
                    break;
                }
                return (double) n / slices;
            }
        }
        throw new IllegalArgumentException("MIG profile " + migProfile + " names no compute slices of " + gpuModel);
    }
}
