package io.gpuaas.events.pool;

import io.gpuaas.events.geometry.GpuGeometry;
import io.gpuaas.events.geometry.GpuGeometryCatalog;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/** The weight of a pool's unit and the checks of a pool against its GPU's geometry, for {@link Pool}. */
final class PoolWeight {

    private static final String MEDIA_EXTENSIONS = "+me";
    private static final Pattern COMPUTE_INSTANCE = Pattern.compile("\\d+c\\..+");

    private PoolWeight() {}

    static double of(String gpuModel, String migProfile) {
        if (migProfile == null || migProfile.isBlank()) {
            return 1.0;
        }
        Optional<GpuGeometry> gpu = GpuGeometryCatalog.shipped().forModel(gpuModel);
        return gpu.isPresent() ? gpu.get().staticWeight(migProfile) : computeShare(gpuModel, migProfile);
    }

    /**
     * Refuses a MIG profile the pool's GPU model does not offer, a {@code +me} or compute-instance profile (see
     * {@link #checkStaticProfile}), and a pool whose {@code gpus} cannot hold its
     * capacity; on a model the geometry catalog does not list, a MIG profile must at least name its {@code <N>g}, and
     * a MIG pool's {@code gpus} is not checked (its {@code k} is unknown).
     */
    static void check(String id, int capacity, String gpuModel, String migProfile, Integer gpus) {
        boolean mig = migProfile != null && !migProfile.isBlank();
        Optional<GpuGeometry> gpu = GpuGeometryCatalog.shipped().forModel(gpuModel);
        if (mig) {
            checkStaticProfile(id, migProfile);
        }
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

    /**
     * A static pool runs its profile alone on its GPUs: a {@code +me} profile holds one instance a GPU (the media
     * engines are not shared), so such a pool would waste the rest of each GPU; a compute-instance profile
     * {@code <C>c.<profile>} shares its GPU instance with other compute instances, which no pool places or weighs.
     */
    private static void checkStaticProfile(String id, String migProfile) {
        if (migProfile.endsWith(MEDIA_EXTENSIONS)) {
            throw new IllegalArgumentException("pool " + id + ": a static pool of " + migProfile
                    + " holds one instance a GPU (its media engines are not shared) and wastes the rest; use "
                    + migProfile.substring(0, migProfile.length() - MEDIA_EXTENSIONS.length()));
        }
        if (COMPUTE_INSTANCE.matcher(migProfile).matches()) {
            throw new IllegalArgumentException("pool " + id + ": compute-instance profile " + migProfile
                    + " is not supported in a pool; use its GPU instance profile "
                    + migProfile.substring(migProfile.indexOf('.') + 1));
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
