package io.gpuaas.metrics.dcgm;

import io.gpuaas.events.gpu.GpuScrape;

/**
 * The DCGM values read for one device, scraped ({@link DeviceTable}) or remote-written, and the one rule that turns
 * them into a {@code GpuScrape.Device}: engine-active is preferred over GPU_UTIL, decoder and encoder percent are carried
 * beside it, and what the contract cannot carry is missing ({@link DeviceValues}). Not thread-safe: one per device of one scrape or request.
 */
public final class FieldReadings {

    private final double[] values = new double[DcgmField.values().length];
    private final boolean[] present = new boolean[values.length];

    /** Records {@code value} in the exporter's unit; NaN (Prometheus' stale marker too) or infinity is no reading. */
    public void set(DcgmField field, double value) {
        // A non-finite value must never look like an idle GPU downstream.
        if (Double.isFinite(value)) {
            values[field.ordinal()] = value * field.scale;
            present[field.ordinal()] = true;
        }
    }

    /** Whether a utilization was read (engine-active or GPU_UTIL). */
    public boolean hasUtilization() {
        return present[DcgmField.GR_ENGINE_ACTIVE.ordinal()] || present[DcgmField.GPU_UTIL.ordinal()];
    }

    /** The device with these values and the given identity and attribution. */
    public GpuScrape.Device device(
            String uuid,
            String gpu,
            String modelName,
            String gpuInstanceId,
            String migProfile,
            String hostnameLabel,
            String namespace,
            String pod,
            String container) {
        DcgmField source = present[DcgmField.GR_ENGINE_ACTIVE.ordinal()]
                ? DcgmField.GR_ENGINE_ACTIVE
                : present[DcgmField.GPU_UTIL.ordinal()] ? DcgmField.GPU_UTIL : null;
        Double utilization = source == null ? null : DeviceValues.ratio(values[source.ordinal()]);
        return new GpuScrape.Device(
                uuid,
                DeviceValues.gpuIndex(gpu),
                modelName,
                gpuInstanceId,
                migProfile,
                hostnameLabel,
                namespace,
                pod,
                container,
                utilization,
                utilization == null ? null : source.name(),
                value(DcgmField.FB_USED),
                value(DcgmField.FB_FREE),
                value(DcgmField.POWER_USAGE),
                percent(DcgmField.DEC_UTIL),
                percent(DcgmField.ENC_UTIL));
    }

    private Double percent(DcgmField field) {
        return DeviceValues.percent(present[field.ordinal()], values[field.ordinal()]);
    }

    private Double value(DcgmField field) {
        return DeviceValues.nonNegative(present[field.ordinal()], values[field.ordinal()]);
    }
}
