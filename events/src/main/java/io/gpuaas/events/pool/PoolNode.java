package io.gpuaas.events.pool;

/**
 * A node of a flexible pool and how many GPUs of the pool's model it carries (indexes {@code 0 .. gpus-1}).
 *
 * @param name Kubernetes node name
 * @param gpus GPUs on the node, at least one
 */
public record PoolNode(String name, int gpus) {

    public PoolNode {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a pool node needs a name");
        }
        if (gpus <= 0) {
            throw new IllegalArgumentException("node " + name + ": gpus must be >= 1");
        }
    }
}
