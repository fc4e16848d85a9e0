package io.gpuaas.events.pool;

import io.gpuaas.events.geometry.GpuGeometryCatalog;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/** The checks of a flexible {@link Pool} when the catalog loads. */
final class FlexibleCheck {

    private static final Pattern COMPUTE_INSTANCE = Pattern.compile("\\d+c\\..+");

    /** The {@code gpuaas.io/pool} value deploy/kubernetes' static flavors select, so no flexible pool may use it. */
    static final String STATIC_NODES = "static";

    private FlexibleCheck() {}

    static void check(
            String id,
            String resource,
            int capacity,
            String gpuModel,
            String migProfile,
            Integer gpus,
            List<PoolNode> nodes) {
        if (STATIC_NODES.equals(id)) {
            throw new IllegalArgumentException("pool " + id + ": a flexible pool's nodes are labelled gpuaas.io/pool="
                    + "<its id>, and " + STATIC_NODES + " is the label value of static pools' nodes");
        }
        if (migProfile != null && !migProfile.isBlank()) {
            throw new IllegalArgumentException("pool " + id
                    + ": a flexible pool is booked by any profile of its model and names none (migProfile "
                    + migProfile + ")");
        }
        if (!Pool.WHOLE_GPU_RESOURCE.equals(resource)) {
            throw new IllegalArgumentException(
                    "pool " + id + ": a flexible pool's resource is " + Pool.WHOLE_GPU_RESOURCE + ", got " + resource);
        }
        if (GpuGeometryCatalog.shipped().forModel(gpuModel).isEmpty()) {
            throw new IllegalArgumentException("pool " + id + ": GPU model " + gpuModel
                    + " is not in the geometry catalog, so its MIG layouts are unknown");
        }
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("pool " + id + ": a flexible pool lists its nodes");
        }
        Set<String> names = new HashSet<>();
        int total = 0;
        for (PoolNode node : nodes) {
            if (!names.add(node.name())) {
                throw new IllegalArgumentException("pool " + id + ": node " + node.name() + " is listed twice");
            }
            total += node.gpus();
        }
        if (capacity != total) {
            throw new IllegalArgumentException(
                    "pool " + id + ": capacity " + capacity + " is not the nodes' " + total + " GPUs");
        }
        if (gpus != null && gpus != total) {
            throw new IllegalArgumentException(
                    "pool " + id + ": gpus " + gpus + " is not the nodes' " + total + " GPUs");
        }
    }

    /** A profile a booking may name: not a {@code +me} profile (one a GPU) nor a compute-instance profile. */
    static boolean bookable(String profile) {
        return !profile.endsWith("+me") && !COMPUTE_INSTANCE.matcher(profile).matches();
    }
}
