package io.gpuaas.events.gpu;

import java.time.Instant;

/**
 * One reading of one GPU device (a full GPU or a MIG instance) from one dcgm-exporter scrape; the values of
 * {@code gpuaas.gpu-samples}, keyed by {@link #deviceKey()}.
 *
 * @param time              when the sample was scraped
 * @param hostname          node the device is on
 * @param uuid              GPU UUID
 * @param gpuIndex          GPU index on the node, may be null
 * @param modelName         GPU model, e.g. {@code NVIDIA H100 80GB HBM3}, may be null
 * @param gpuInstanceId     MIG GPU instance id, null for a full GPU
 * @param migProfile        MIG profile, e.g. {@code 2g.35gb}, null for a full GPU
 * @param namespace         namespace of the pod the device is attributed to, null when unattributed
 * @param pod               pod the device is attributed to, null when unattributed
 * @param container         container the device is attributed to, null when unattributed
 * @param utilization       busy ratio 0..1, null when the exporter reported none
 * @param utilizationSource which counter the ratio came from: {@code GR_ENGINE_ACTIVE} or {@code GPU_UTIL}
 * @param memoryUsedMiB     frame buffer used, may be null
 * @param memoryFreeMiB     frame buffer free, may be null
 * @param powerWatts        power draw, may be null
 */
public record GpuSample(
        Instant time,
        String hostname,
        String uuid,
        Integer gpuIndex,
        String modelName,
        String gpuInstanceId,
        String migProfile,
        String namespace,
        String pod,
        String container,
        Double utilization,
        String utilizationSource,
        Double memoryUsedMiB,
        Double memoryFreeMiB,
        Double powerWatts)
        implements GpuSampleEvent {

    /** {@code hostname/uuid} for a full GPU, {@code hostname/uuid/gpuInstanceId} for a MIG instance. */
    public String deviceKey() {
        return deviceKey(hostname, uuid, gpuInstanceId);
    }

    /** The record key of a device; a null or empty {@code gpuInstanceId} means a full GPU. */
    public static String deviceKey(String hostname, String uuid, String gpuInstanceId) {
        return gpuInstanceId == null || gpuInstanceId.isEmpty()
                ? hostname + "/" + uuid
                : hostname + "/" + uuid + "/" + gpuInstanceId;
    }

    /** Whether the device is attributed to a pod. */
    public boolean attributed() {
        return pod != null && !pod.isEmpty() && namespace != null && !namespace.isEmpty();
    }
}
