package io.gpuaas.events.gpu;

import com.fasterxml.jackson.annotation.JsonCreator;
import java.time.Instant;
import java.util.List;

/**
 * What one scrape of one dcgm-exporter (or one remote-write batch of one node at one time) said about every GPU
 * device of its node; the values of {@code gpuaas.gpu-samples}, keyed by {@link #node()}. One record per scrape, not
 * per device: a scrape is what the source produces, and the per-record cost of Kafka (envelope, headers, batching)
 * is then paid once per node instead of once per device.
 *
 * <p>A device is identified by {@link #deviceKey(Device) node/uuid[/gpuInstanceId]}. The node is the one the
 * producer knows the exporter runs on (the exporter pod's {@code spec.nodeName} from discovery, or a configured
 * target's name), never the exporter's own {@code Hostname} label, which is often the exporter pod's name and changes
 * when the exporter restarts; that label is kept per device as {@link Device#hostnameLabel()}.
 *
 * @param time    when the scrape was taken (every device of the record was read at this time)
 * @param node    the node the devices are on; the record key
 * @param target  where the values came from: the scraped exporter's {@code host:port} (path added when not
 *                {@code /metrics}), or the remote-write source; null when unknown
 * @param devices one entry per device (a full GPU or a MIG instance), in the order the source listed them
 */
public record GpuScrape(Instant time, String node, String target, List<Device> devices) implements GpuScrapeEvent {

    /** A scrape with an unmodifiable copy of {@code devices} (an empty list when null). */
    public GpuScrape {
        devices = devices == null ? List.of() : List.copyOf(devices);
    }

    /** The record key: the node. */
    public String key() {
        return node;
    }

    /** The key of {@code device} on this scrape's node: {@code node/uuid[/gpuInstanceId]}. */
    public String deviceKey(Device device) {
        return deviceKey(node, device.uuid(), device.gpuInstanceId());
    }

    /** {@code node/uuid} for a full GPU, {@code node/uuid/gpuInstanceId} for a MIG instance (null or empty: full). */
    public static String deviceKey(String node, String uuid, String gpuInstanceId) {
        return gpuInstanceId == null || gpuInstanceId.isEmpty()
                ? node + "/" + uuid
                : node + "/" + uuid + "/" + gpuInstanceId;
    }

    /**
     * One device's reading in a scrape. Missing values are null, never zero: a missing utilization is doubt, not
     * idleness.
     *
     * @param uuid              GPU UUID (dcgm label {@code UUID})
     * @param gpuIndex          GPU index on the node (dcgm label {@code gpu}), may be null
     * @param modelName         GPU model, e.g. {@code NVIDIA H100 80GB HBM3}, may be null
     * @param gpuInstanceId     MIG GPU instance id (dcgm label {@code GPU_I_ID}), null for a full GPU
     * @param migProfile        MIG profile, e.g. {@code 2g.35gb}, null for a full GPU
     * @param hostnameLabel     the exporter's own {@code Hostname} label as reported, often the exporter pod's name;
     *                          kept for diagnosis, never part of the identity; may be null
     * @param namespace         namespace of the pod the device is attributed to, null when unattributed
     * @param pod               pod the device is attributed to, null when unattributed
     * @param container         container the device is attributed to, null when unattributed
     * @param utilization       busy ratio 0..1, null when the exporter reported none
     * @param utilizationSource which counter the ratio came from: {@code GR_ENGINE_ACTIVE} or {@code GPU_UTIL}
     * @param memoryUsedMiB     frame buffer used, may be null
     * @param memoryFreeMiB     frame buffer free, may be null
     * @param powerWatts        power draw, may be null
     * @param decoderUtilPercent video decoder utilization in percent 0..100 ({@code DCGM_FI_DEV_DEC_UTIL}), may be
     *                          null
     * @param encoderUtilPercent video encoder utilization in percent 0..100 ({@code DCGM_FI_DEV_ENC_UTIL}), may be
     *                          null
     */
    public record Device(
            String uuid,
            Integer gpuIndex,
            String modelName,
            String gpuInstanceId,
            String migProfile,
            String hostnameLabel,
            String namespace,
            String pod,
            String container,
            Double utilization,
            String utilizationSource,
            Double memoryUsedMiB,
            Double memoryFreeMiB,
            Double powerWatts,
            Double decoderUtilPercent,
            Double encoderUtilPercent) {

        /** The canonical constructor, named for Jackson: with a second constructor it would not pick it by itself. */
        @JsonCreator
        public Device {}

        /** A device without decoder or encoder readings (sources that report neither, and older producers). */
        public Device(
                String uuid,
                Integer gpuIndex,
                String modelName,
                String gpuInstanceId,
                String migProfile,
                String hostnameLabel,
                String namespace,
                String pod,
                String container,
                Double utilization,
                String utilizationSource,
                Double memoryUsedMiB,
                Double memoryFreeMiB,
                Double powerWatts) {
            this(
                    uuid,
                    gpuIndex,
                    modelName,
                    gpuInstanceId,
                    migProfile,
                    hostnameLabel,
                    namespace,
                    pod,
                    container,
                    utilization,
                    utilizationSource,
                    memoryUsedMiB,
                    memoryFreeMiB,
                    powerWatts,
                    null,
                    null);
        }

        /** This device with the given decoder and encoder utilization (percent, null when not read). */
        public Device withMedia(Double decoderPercent, Double encoderPercent) {
            return new Device(
                    uuid,
                    gpuIndex,
                    modelName,
                    gpuInstanceId,
                    migProfile,
                    hostnameLabel,
                    namespace,
                    pod,
                    container,
                    utilization,
                    utilizationSource,
                    memoryUsedMiB,
                    memoryFreeMiB,
                    powerWatts,
                    decoderPercent,
                    encoderPercent);
        }

        /** Whether the device is attributed to a pod. */
        public boolean attributed() {
            return pod != null && !pod.isEmpty() && namespace != null && !namespace.isEmpty();
        }
    }
}
