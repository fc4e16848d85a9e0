package io.gpuaas.local.fleet;

/**
 * One schedulable GPU device of the simulated fleet: a whole GPU or one MIG instance of it. A device is identified
 * the way dcgm-exporter identifies it: (Hostname, UUID, GPU_I_ID).
 *
 * @param hostname      node name, also dcgm-exporter's {@code Hostname} label
 * @param gpuIndex      index of the physical GPU on the node ({@code gpu} label)
 * @param uuid          UUID of the physical GPU
 * @param pciBusId      PCI bus id of the physical GPU
 * @param resource      Kubernetes extended resource this device is handed out as
 * @param migProfile    MIG profile such as {@code 1g.18gb}, or null for a whole GPU
 * @param gpuInstanceId MIG GPU instance id, or -1 for a whole GPU
 * @param memoryMib     framebuffer memory of the device
 */
public record GpuDevice(
        String hostname,
        int gpuIndex,
        String uuid,
        String pciBusId,
        String resource,
        String migProfile,
        int gpuInstanceId,
        int memoryMib) {

    /** Whether this device is a MIG instance rather than a whole GPU. */
    public boolean mig() {
        return migProfile != null;
    }

    /** The key gpuaas uses for this device: hostname/uuid[/gpuInstanceId]. */
    public String key() {
        return mig() ? hostname + "/" + uuid + "/" + gpuInstanceId : hostname + "/" + uuid;
    }
}
