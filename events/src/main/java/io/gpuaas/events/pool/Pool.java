package io.gpuaas.events.pool;

import java.time.Duration;

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

    /** Rejects a pool without id, flavor or resource, or with negative capacity. */
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
    }

    /** A pool with the service's default no-show grace. */
    public Pool(String id, String flavor, String resource, int capacity, String gpuModel, String migProfile) {
        this(id, flavor, resource, capacity, gpuModel, migProfile, null);
    }
}
