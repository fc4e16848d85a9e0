package io.gpuaas.metrics.remotewrite;

import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.metrics.dcgm.DcgmField;
import io.gpuaas.metrics.dcgm.DeviceValues;
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
    private final double[] values = new double[DcgmField.values().length];
    private final boolean[] present = new boolean[DcgmField.values().length];

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
        // NaN (including Prometheus' stale marker) or infinity is no reading: it must never look like an idle GPU.
        if (Double.isFinite(value)) {
            values[field.ordinal()] = value * field.scale;
            present[field.ordinal()] = true;
        }
    }

    /** Whether the request carried a utilization of this device (engine-active or GPU_UTIL, finite). */
    boolean hasUtilization() {
        return present[DcgmField.GR_ENGINE_ACTIVE.ordinal()] || present[DcgmField.GPU_UTIL.ordinal()];
    }

    GpuScrape.Device toDevice() {
        String source = null;
        Double utilization = null;
        if (present[DcgmField.GR_ENGINE_ACTIVE.ordinal()]) {
            source = "GR_ENGINE_ACTIVE";
            utilization = DeviceValues.ratio(values[DcgmField.GR_ENGINE_ACTIVE.ordinal()]);
        } else if (present[DcgmField.GPU_UTIL.ordinal()]) {
            source = "GPU_UTIL";
            utilization = DeviceValues.ratio(values[DcgmField.GPU_UTIL.ordinal()]);
        }
        return new GpuScrape.Device(
                uuid,
                DeviceValues.gpuIndex(gpu),
                modelName,
                gpuInstanceId,
                migProfile,
                hostname,
                namespace,
                pod,
                container,
                utilization,
                utilization == null ? null : source,
                value(DcgmField.FB_USED),
                value(DcgmField.FB_FREE),
                value(DcgmField.POWER_USAGE));
    }

    private Double value(DcgmField field) {
        return DeviceValues.nonNegative(present[field.ordinal()], values[field.ordinal()]);
    }
}
