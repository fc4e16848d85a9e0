package io.gpuaas.booking.placement;

import java.util.Comparator;

/**
 * One GPU of a fleet: the node it sits in and its index there ({@code nvidia-smi}'s GPU index, as the MIG manager's
 * per-GPU {@code devices} list names it). Ordered by node, then index, so every walk over a fleet is deterministic.
 *
 * @param node  the Kubernetes node name
 * @param index the GPU's index on that node, from 0
 */
public record GpuAddress(String node, int index) implements Comparable<GpuAddress> {

    private static final Comparator<GpuAddress> ORDER =
            Comparator.comparing(GpuAddress::node).thenComparingInt(GpuAddress::index);

    /** Rejects a blank node or a negative index. */
    public GpuAddress {
        if (node == null || node.isBlank()) {
            throw new IllegalArgumentException("a GPU address needs a node");
        }
        if (index < 0) {
            throw new IllegalArgumentException("GPU index on " + node + " must be >= 0, was " + index);
        }
    }

    @Override
    public int compareTo(GpuAddress other) {
        return ORDER.compare(this, other);
    }

    @Override
    public String toString() {
        return node + "/" + index;
    }
}
