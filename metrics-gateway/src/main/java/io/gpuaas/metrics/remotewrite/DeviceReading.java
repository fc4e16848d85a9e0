package io.gpuaas.metrics.remotewrite;

import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.metrics.dcgm.DcgmField;
import io.gpuaas.metrics.dcgm.FieldReadings;
import io.gpuaas.metrics.remotewrite.LabelSlots.Slot;

/**
 * What the series of one request said about one device at one time: the first non-empty value of each label wins,
 * the last reading of each series wins. The same rules as the text parser's, so a device reads the same whether the
 * gateway scraped its exporter or Prometheus did.
 */
final class DeviceReading {

    final byte[] uuidBytes;
    final byte[] gpuInstanceIdBytes;
    private final String uuid;
    private final String gpuInstanceId;
    private String gpu;
    private String modelName;
    private String migProfile;
    private String hostname;
    private String namespace;
    private String pod;
    private String container;
    private boolean complete;
    private final FieldReadings readings = new FieldReadings();

    DeviceReading(Series series, int[] index) {
        uuidBytes = series.valueBytes(index[Slot.UUID.ordinal()]);
        gpuInstanceIdBytes = series.valueBytes(index[Slot.GPU_INSTANCE_ID.ordinal()]);
        uuid = series.value(index[Slot.UUID.ordinal()]);
        gpuInstanceId = series.value(index[Slot.GPU_INSTANCE_ID.ordinal()]);
    }

    boolean is(Series series, int[] index) {
        return series.valueIs(index[Slot.UUID.ordinal()], uuidBytes)
                && series.valueIs(index[Slot.GPU_INSTANCE_ID.ordinal()], gpuInstanceIdBytes);
    }

    /** Takes the attributes this reading does not have yet from {@code series}. */
    void attributes(Series series, int[] index) {
        if (complete) {
            return;
        }
        gpu = gpu != null ? gpu : series.value(index[Slot.GPU.ordinal()]);
        modelName = modelName != null ? modelName : series.value(index[Slot.MODEL_NAME.ordinal()]);
        migProfile = migProfile != null ? migProfile : series.value(index[Slot.GPU_INSTANCE_PROFILE.ordinal()]);
        hostname = hostname != null ? hostname : series.value(index[Slot.HOSTNAME.ordinal()]);
        namespace = namespace != null ? namespace : series.value(index[Slot.NAMESPACE.ordinal()]);
        pod = pod != null ? pod : series.value(index[Slot.POD.ordinal()]);
        container = container != null ? container : series.value(index[Slot.CONTAINER.ordinal()]);
        // Attribution labels are absent on unattributed devices: only a full set ends the look-ups for good.
        complete = gpu != null
                && modelName != null
                && hostname != null
                && namespace != null
                && pod != null
                && container != null
                && (gpuInstanceId == null || migProfile != null);
    }

    void set(DcgmField field, double value) {
        readings.set(field, value);
    }

    /** Whether the request carried a utilization of this device (engine-active or GPU_UTIL, finite). */
    boolean hasUtilization() {
        return readings.hasUtilization();
    }

    GpuScrape.Device toDevice() {
        return readings.device(uuid, gpu, modelName, gpuInstanceId, migProfile, hostname, namespace, pod, container);
    }
}
