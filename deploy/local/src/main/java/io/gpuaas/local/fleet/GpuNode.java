package io.gpuaas.local.fleet;

import io.gpuaas.events.Labels;
import java.util.List;
import java.util.Map;

/**
 * One simulated GPU node: its Kubernetes labels, the extended resources it advertises, and its devices.
 *
 * @param name         node name
 * @param gpus         physical GPUs on the node
 * @param migConfig    value of {@code nvidia.com/mig.config} the node's devices follow
 * @param devices      schedulable devices (whole GPUs or MIG instances)
 * @param flexiblePool the flexible pool the node belongs to (its {@value Labels#POOL} label), or null
 *                     for a node of the static pools, whose layout never changes
 * @param layouts      a flexible node's layout per GPU index, from which its devices follow; empty for a static node
 */
public record GpuNode(
        String name,
        int gpus,
        String migConfig,
        List<GpuDevice> devices,
        String flexiblePool,
        List<GpuLayout> layouts) {

    public GpuNode {
        devices = List.copyOf(devices);
        layouts = List.copyOf(layouts);
        if (flexiblePool != null && layouts.size() != gpus) {
            throw new IllegalArgumentException(
                    "flexible node " + name + " needs a layout for each of its " + gpus + " GPUs, got " + layouts);
        }
    }

    /** A node of the static pools. */
    public GpuNode(String name, int gpus, String migConfig, List<GpuDevice> devices) {
        this(name, gpus, migConfig, devices, null, List.of());
    }

    /** Whether gpuaas lays this node out (it is in a flexible pool and the MIG manager stand-in reconfigures it). */
    public boolean flexible() {
        return flexiblePool != null;
    }

    /** Advertised capacity per extended resource, as the NVIDIA device plugin reports it. */
    public Map<String, Integer> capacity() {
        Map<String, Integer> capacity = new java.util.TreeMap<>();
        for (GpuDevice device : devices) {
            capacity.merge(device.resource(), 1, Integer::sum);
        }
        return capacity;
    }
}
