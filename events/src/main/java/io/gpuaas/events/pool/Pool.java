package io.gpuaas.events.pool;

import java.time.Duration;

/**
 * A bookable pool: whole GPUs or one MIG slice size of one GPU model. Pools are configuration, shared by
 * booking-service (capacity to decide against) and quota-projector (physical capacity per flavor and resource).
 *
 * <p>A MIG pool is <em>static</em>: its profile is laid out alone on each of its GPUs, as many to a GPU as the GPU
 * holds ({@code k}, from {@link io.gpuaas.events.geometry.GpuGeometry#mostInstances}), so a unit weighs {@code 1/k}
 * of a GPU ({@link #gpuFraction()}).
 *
 * @param id       pool id used in bookings and as the command key, e.g. {@code h200-mig-2g.35gb}
 * @param flavor   Kueue ResourceFlavor name
 * @param resource Kubernetes extended resource, e.g. {@code nvidia.com/gpu} or {@code nvidia.com/mig-2g.35gb}
 * @param capacity physical units in the cluster
 * @param gpuModel GPU model as {@code nvidia-smi} prints it, e.g. {@code NVIDIA H200}
 * @param migProfile MIG profile such as {@code 2g.35gb}, or null for whole GPUs
 * @param noShowGrace how long an active booking of this pool may go without a Workload of its tenant before
 *                    booking-service releases it as a no-show; zero turns the release off, null (absent in the file)
 *                    means booking-service's default ({@code gpuaas.booking.lifecycle.no-show-grace})
 * @param gpus     how many physical GPUs the pool's units sit on, or null (absent in the file) when not declared;
 *                 when given, the capacity must fit on them ({@code k} units of a MIG profile per GPU)
 */
public record Pool(
        String id,
        String flavor,
        String resource,
        int capacity,
        String gpuModel,
        String migProfile,
        Duration noShowGrace,
        Integer gpus) {

    /**
     * Rejects a pool without id, flavor or resource, with negative capacity, with a MIG profile its GPU model does
     * not offer (a model the geometry catalog does not list: one that names no {@code <N>g} compute slices), with a
     * {@code +me} profile (one a GPU: it would waste the rest) or a compute-instance profile {@code <C>c.<profile>}
     * (not supported in a pool), or with more units than its {@code gpus} hold. At catalog load, rather than on every ledger read that weighs it.
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
        // The fields are assigned only after this body: the check takes the parameters.
        PoolWeight.check(id, capacity, gpuModel, migProfile, gpus);
    }

    /**
     * The fraction of one GPU a unit of this pool is, by which the ledger weighs its GPU-hours:
     * {@link #gpuFraction(String, String)} of its model and profile.
     */
    public double gpuFraction() {
        return gpuFraction(gpuModel, migProfile);
    }

    /**
     * The fraction of one GPU of {@code gpuModel} that a unit of a static pool of {@code migProfile} is: 1 without a
     * profile; {@code 1/k} when the geometry catalog lists the model, {@code k} being the most instances of the
     * profile one GPU holds (H200: 1g.18gb 1/7, 1g.35gb 1/4, 2g.35gb 1/3, 3g.71gb 1/2, 4g.71gb and 7g.141gb 1), so
     * a GPU's units add up to one GPU whatever profile it runs; for a model the catalog does not list, as before
     * the catalog: {@code N} of the GPU's compute slices for a profile {@code <N>g.<memory>} (or a compute-instance
     * profile {@code <C>c.<N>g.<memory>}), which are 4 on an A30 and 7 on the A100/H100/H200/B200 class. A
     * compute-instance profile weighs as the GPU instance it runs in.
     *
     * @throws IllegalArgumentException when the model's geometry offers no such profile, or for an unlisted model
     *                                  when the profile names no {@code <N>g} part or more slices than the GPU has
     */
    public static double gpuFraction(String gpuModel, String migProfile) {
        return PoolWeight.of(gpuModel, migProfile);
    }

    /** A pool with the service's default no-show grace and no declared GPU count. */
    public Pool(String id, String flavor, String resource, int capacity, String gpuModel, String migProfile) {
        this(id, flavor, resource, capacity, gpuModel, migProfile, null, null);
    }

    /** A pool with no declared GPU count. */
    public Pool(
            String id,
            String flavor,
            String resource,
            int capacity,
            String gpuModel,
            String migProfile,
            Duration noShowGrace) {
        this(id, flavor, resource, capacity, gpuModel, migProfile, noShowGrace, null);
    }
}
