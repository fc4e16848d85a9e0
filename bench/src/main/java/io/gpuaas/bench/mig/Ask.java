package io.gpuaas.bench.mig;

import io.gpuaas.booking.placement.UnitKind;

/**
 * One GPU pod of the trace as a book-now booking: {@code quantity} units of one kind over {@code [start, end)}, in
 * trace seconds.
 *
 * @param id       the pod's name
 * @param profile  the MIG profile each unit is, or {@link #WHOLE} for whole GPUs
 * @param compute  compute slices one unit takes (the GPU's all for a whole GPU)
 * @param quantity units asked
 * @param start    trace second the pod was created: the booking starts when it is made
 * @param end      trace second it was deleted (the trace's end for a pod still running then), after {@code start}
 */
record Ask(String id, String profile, int compute, int quantity, long start, long end) {

    /** The profile name a whole-GPU ask carries. */
    static final String WHOLE = "whole";

    Ask {
        if (quantity < 1 || end <= start) {
            throw new IllegalArgumentException(id + ": quantity " + quantity + ", window " + start + ".." + end);
        }
    }

    boolean whole() {
        return profile.equals(WHOLE);
    }

    UnitKind kind() {
        return whole() ? UnitKind.whole() : UnitKind.mig(profile);
    }

    /**
     * GPU-hours asked: units × the share of a GPU's compute one unit is × hours. A whole GPU is one GPU, a 3g.71gb on
     * a 7-slice GPU 3/7.
     */
    double gpuHours(int gpuComputeSlices) {
        return quantity * (double) compute / gpuComputeSlices * (end - start) / 3600.0;
    }
}
