package io.gpuaas.booking.model;

import io.gpuaas.events.geometry.GpuGeometry;
import io.gpuaas.events.geometry.GpuGeometryCatalog;
import io.gpuaas.events.pool.Pool;
import java.util.Objects;
import java.util.Optional;

/**
 * What a unit of a pool is, for the edge and the decider alike: which {@code profile} a create may name, how many
 * units of it the pool holds at most, and how much of a GPU one weighs in the tenant cap. A static pool's unit is its
 * own; a flexible pool's is a MIG profile of its model, or a whole GPU (no profile).
 */
public final class PoolUnits {

    private PoolUnits() {}

    /** Why {@code profile} cannot be booked on {@code pool}, if it cannot. */
    public static Optional<BookingPolicy.Violation> profileProblem(Pool pool, String profile) {
        if (profile == null) {
            return Optional.empty();
        }
        if (pool.flexible()) {
            return pool.bookableProfiles().contains(profile)
                    ? Optional.empty()
                    : Optional.of(new BookingPolicy.Violation(
                            Rejection.INVALID_PROFILE,
                            "pool " + pool.id() + " books whole GPUs (no profile) or one of " + pool.bookableProfiles()
                                    + ", not " + profile));
        }
        return Objects.equals(profile, pool.migProfile())
                ? Optional.empty()
                : Optional.of(new BookingPolicy.Violation(
                        Rejection.INVALID_PROFILE,
                        "pool " + pool.id() + " books only "
                                + (pool.migProfile() == null ? "whole GPUs (no profile)" : pool.migProfile())
                                + ", not " + profile));
    }

    /**
     * The most units of {@code profile} the pool holds at once: a static pool's capacity; on a flexible pool its GPUs
     * times the instances of the profile one GPU holds (its GPUs for whole GPUs). {@code profile} must be valid.
     */
    public static int capacity(Pool pool, String profile) {
        if (!pool.flexible() || profile == null) {
            return pool.capacity();
        }
        return pool.capacity() * geometry(pool).mostInstances(profile);
    }

    /**
     * What one unit weighs on the pool's timelines: 1 on a static pool; on a flexible pool the memory slices it takes
     * (a whole GPU: all of them), so the sum over any instant is at most the pool's GPUs times the slices of one GPU,
     * whatever the mix of profiles.
     */
    public static int weight(Pool pool, String profile) {
        if (!pool.flexible()) {
            return 1;
        }
        GpuGeometry geometry = geometry(pool);
        return profile == null
                ? geometry.memorySlices()
                : geometry.profile(profile).orElseThrow().memorySlices();
    }

    /** The pool's capacity on its timelines: its units, or on a flexible pool its GPUs' memory slices. */
    public static int timelineCapacity(Pool pool) {
        return pool.flexible() ? pool.capacity() * geometry(pool).memorySlices() : pool.capacity();
    }

    /** The geometry of a flexible pool's model; the pool catalog has checked it exists. */
    public static GpuGeometry geometry(Pool pool) {
        return GpuGeometryCatalog.shipped()
                .forModel(pool.gpuModel())
                .orElseThrow(() -> new IllegalStateException("no geometry for " + pool.gpuModel()));
    }
}
