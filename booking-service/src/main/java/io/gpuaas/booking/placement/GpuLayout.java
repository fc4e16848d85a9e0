package io.gpuaas.booking.placement;

import io.gpuaas.events.geometry.MigPlacement;
import java.util.List;

/** What one GPU runs at an instant, as the placements say: nothing booked, a whole GPU, or a MIG layout. */
public sealed interface GpuLayout permits GpuLayout.Idle, GpuLayout.Whole, GpuLayout.Mig {

    /** Nothing booked on the GPU; its mode is free to change. */
    record Idle() implements GpuLayout {}

    /**
     * The GPU in non-MIG mode for one booking.
     *
     * @param bookingId the booking holding it
     */
    record Whole(String bookingId) implements GpuLayout {}

    /**
     * MIG mode with these instances.
     *
     * @param instances the instances, ordered by start; a valid layout of the GPU's geometry
     */
    record Mig(List<MigPlacement> instances) implements GpuLayout {

        /** Copies the instances. */
        public Mig {
            instances = List.copyOf(instances);
        }
    }

    static GpuLayout of(Layer layer) {
        if (layer.isEmpty()) {
            return new Idle();
        }
        return layer.isWhole() ? new Whole(layer.held().getFirst().bookingId()) : new Mig(layer.layout());
    }
}
