package io.gpuaas.local.fleet;

import java.util.List;
import java.util.Map;

/**
 * One simulated GPU node: its Kubernetes labels, the extended resources it advertises, and its devices.
 *
 * @param name      node name
 * @param gpus      physical GPUs on the node
 * @param migConfig value of {@code nvidia.com/mig.config}
 * @param devices   schedulable devices (whole GPUs or MIG instances)
 */
public record GpuNode(String name, int gpus, String migConfig, List<GpuDevice> devices) {

    public GpuNode {
        devices = List.copyOf(devices);
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
