package io.gpuaas.metrics.dcgm;

import io.gpuaas.events.gpu.GpuSample;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The devices of one scrape, in first-seen order. dcgm-exporter groups lines by counter and lists the devices
 * in the same order in every group, so the next lookup is tried first: lookups are O(1) in practice.
 */
final class DeviceTable {

    private final List<Device> devices = new ArrayList<>();
    private int next;

    void clear() {
        devices.clear();
        next = 0;
    }

    Device find(String hostname, String uuid, String gpuInstanceId) {
        int n = devices.size();
        for (int probe = 0; probe < n; probe++) {
            int i = (next + probe) % n;
            Device device = devices.get(i);
            if (device.is(hostname, uuid, gpuInstanceId)) {
                next = (i + 1) % n;
                return device;
            }
        }
        Device device = new Device(hostname, uuid, gpuInstanceId);
        devices.add(device);
        next = 0;
        return device;
    }

    List<GpuSample> samples(Instant time) {
        List<GpuSample> samples = new ArrayList<>(devices.size());
        for (Device device : devices) {
            samples.add(device.toSample(time));
        }
        return samples;
    }

    /** What one scrape said about one device; the first non-empty attribute wins, the last value wins. */
    static final class Device {
        final String hostname;
        final String uuid;
        final String gpuInstanceId;
        String gpu;
        String modelName;
        String migProfile;
        String namespace;
        String pod;
        String container;
        final double[] values = new double[DcgmField.values().length];
        final boolean[] present = new boolean[values.length];

        Device(String hostname, String uuid, String gpuInstanceId) {
            this.hostname = hostname;
            this.uuid = uuid;
            this.gpuInstanceId = gpuInstanceId;
        }

        boolean is(String otherHostname, String otherUuid, String otherGpuInstanceId) {
            return uuid.equals(otherUuid)
                    && Objects.equals(hostname, otherHostname)
                    && Objects.equals(gpuInstanceId, otherGpuInstanceId);
        }

        void set(DcgmField field, double value) {
            // A reported NaN or infinity is no reading at all: it must never look like an idle GPU downstream.
            if (Double.isFinite(value)) {
                values[field.ordinal()] = value * field.scale;
                present[field.ordinal()] = true;
            }
        }

        GpuSample toSample(Instant time) {
            String source = null;
            Double utilization = null;
            if (present[DcgmField.GR_ENGINE_ACTIVE.ordinal()]) {
                source = "GR_ENGINE_ACTIVE";
                utilization = ratio(values[DcgmField.GR_ENGINE_ACTIVE.ordinal()]);
            } else if (present[DcgmField.GPU_UTIL.ordinal()]) {
                source = "GPU_UTIL";
                utilization = ratio(values[DcgmField.GPU_UTIL.ordinal()]);
            }
            return new GpuSample(
                    time,
                    hostname,
                    uuid,
                    gpuIndex(),
                    modelName,
                    gpuInstanceId,
                    migProfile,
                    namespace,
                    pod,
                    container,
                    utilization,
                    utilization == null ? null : source,
                    value(DcgmField.FB_USED),
                    value(DcgmField.FB_FREE),
                    value(DcgmField.POWER_USAGE));
        }

        /**
         * A reading the contract cannot carry (memory and power are never negative; an exporter reports a negative
         * or NaN value for a field it could not read) is reported as missing, so the sample stays valid and its
         * readers never dead-letter it.
         */
        private Double value(DcgmField field) {
            double v = values[field.ordinal()];
            return present[field.ordinal()] && v >= 0 ? v : null;
        }

        private static Double ratio(double value) {
            return value < 0 ? null : Math.min(value, 1.0);
        }

        private Integer gpuIndex() {
            if (gpu == null) {
                return null;
            }
            try {
                return Integer.valueOf(gpu);
            } catch (NumberFormatException e) {
                return null;
            }
        }
    }
}
