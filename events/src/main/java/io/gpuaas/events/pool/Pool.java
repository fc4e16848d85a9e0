package io.gpuaas.events.pool;

import java.time.Duration;
import java.util.Locale;

/**
 * A bookable pool: whole GPUs or one MIG slice size of one GPU model. Pools are configuration, shared by
 * booking-service (capacity to decide against) and quota-projector (physical capacity per flavor and resource).
 *
 * @param id       pool id used in bookings and as the command key, e.g. {@code h200-mig-2g.35gb}
 * @param flavor   Kueue ResourceFlavor name
 * @param resource Kubernetes extended resource, e.g. {@code nvidia.com/gpu} or {@code nvidia.com/mig-2g.35gb}
 * @param capacity physical units in the cluster
 * @param gpuModel GPU model, e.g. {@code NVIDIA H200}
 * @param migProfile MIG profile such as {@code 2g.35gb}, or null for whole GPUs
 * @param noShowGrace how long an active booking of this pool may go without a Workload of its tenant before
 *                    booking-service releases it as a no-show; zero turns the release off, null (absent in the file)
 *                    means booking-service's default ({@code gpuaas.booking.lifecycle.no-show-grace})
 */
public record Pool(
        String id,
        String flavor,
        String resource,
        int capacity,
        String gpuModel,
        String migProfile,
        Duration noShowGrace) {

    /**
     * Rejects a pool without id, flavor or resource, with negative capacity, or with a MIG profile that names no
     * {@code <N>g} compute slices of its GPU (at catalog load, rather than on every ledger read that weighs it).
     */
    public Pool {
        if (id == null
                || id.isBlank()
                || flavor == null
                || flavor.isBlank()
                || resource == null
                || resource.isBlank()) {
            throw new IllegalArgumentException("a pool needs id, flavor and resource");
        }
        if (capacity < 0) {
            throw new IllegalArgumentException("pool " + id + ": capacity must be >= 0");
        }
        if (noShowGrace != null && noShowGrace.isNegative()) {
            throw new IllegalArgumentException("pool " + id + ": noShowGrace must be >= 0 (PT0S turns it off)");
        }
        try {
            gpuFraction(gpuModel, migProfile);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("pool " + id + ": " + e.getMessage() + " (expected <N>g.<memory>)", e);
        }
    }

    /**
     * The fraction of one GPU a unit of this pool is: 1 for a whole GPU, a MIG slice's share otherwise
     * ({@link #gpuFraction(String, String)}). The ledger weighs GPU-hours with it.
     */
    public double gpuFraction() {
        return gpuFraction(gpuModel, migProfile);
    }

    /**
     * The fraction of one GPU of {@code gpuModel} that a unit of {@code migProfile} is: 1 without a profile; for a
     * profile {@code <N>g.<memory>} (or a compute-instance profile {@code <C>c.<N>g.<memory>}) N of the GPU's
     * compute slices, which are 4 on an A30 and 7 on the A100/H100/H200/B200 class.
     *
     * @throws IllegalArgumentException when the profile names no {@code <N>g} part or more slices than the GPU has
     */
    public static double gpuFraction(String gpuModel, String migProfile) {
        if (migProfile == null || migProfile.isBlank()) {
            return 1.0;
        }
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

    /** A pool with the service's default no-show grace. */
    public Pool(String id, String flavor, String resource, int capacity, String gpuModel, String migProfile) {
        this(id, flavor, resource, capacity, gpuModel, migProfile, null);
    }
}
