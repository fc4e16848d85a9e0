package io.gpuaas.metrics.remotewrite;

import io.gpuaas.events.gpu.GpuScrape;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The devices one request reported for one node at one timestamp, in first-seen order. Prometheus sends a scrape's
 * series in exposition order, where dcgm-exporter lists the devices in the same order under every metric, so the
 * device after the last one found is tried first: look-ups compare one UUID in practice.
 */
final class NodeScrape {

    /** The bytes of the label that named the node on the series that opened this scrape, for a quick re-match. */
    final byte[] nodeLabelBytes;

    final long timestampMillis;
    private final String node;
    private final String target;
    private final List<DeviceReading> devices = new ArrayList<>();
    private int next;

    NodeScrape(byte[] nodeLabelBytes, String node, long timestampMillis, String target) {
        this.nodeLabelBytes = nodeLabelBytes;
        this.node = node;
        this.timestampMillis = timestampMillis;
        this.target = target;
    }

    DeviceReading device(Series series, int[] index) {
        int n = devices.size();
        for (int probe = 0; probe < n; probe++) {
            int i = (next + probe) % n;
            DeviceReading device = devices.get(i);
            if (device.is(series, index)) {
                next = (i + 1) % n;
                device.attributes(series, index);
                return device;
            }
        }
        DeviceReading device = new DeviceReading(series, index);
        device.attributes(series, index);
        devices.add(device);
        next = 0;
        return device;
    }

    /**
     * The scrape of the devices the request gave a utilization for; null when none. Prometheus spreads one scrape's
     * series over several requests (shards hash series; a batch can end mid-scrape), so a device whose utilization
     * came in another request would read "no utilization" here, which the reclaimer takes as busy: such a partial
     * reading is left out, its memory and power with it (nothing reads those yet).
     */
    GpuScrape toScrape() {
        List<GpuScrape.Device> readings = new ArrayList<>(devices.size());
        for (DeviceReading device : devices) {
            if (device.hasUtilization()) {
                readings.add(device.toDevice());
            }
        }
        return readings.isEmpty() ? null : new GpuScrape(Instant.ofEpochMilli(timestampMillis), node, target, readings);
    }

    /** Devices the request named, with or without a utilization. */
    int deviceCount() {
        return devices.size();
    }
}
