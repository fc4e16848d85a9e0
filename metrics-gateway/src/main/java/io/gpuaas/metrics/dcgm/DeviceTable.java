package io.gpuaas.metrics.dcgm;

import io.gpuaas.events.gpu.GpuScrape;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

    int size() {
        return devices.size();
    }

    /** The device {@code node/uuid[/gpuInstanceId]}, created on first sight with the line's Hostname label. */
    Device find(String node, String uuid, String gpuInstanceId, String hostnameLabel) {
        int n = devices.size();
        for (int probe = 0; probe < n; probe++) {
            int i = (next + probe) % n;
            Device device = devices.get(i);
            if (device.is(node, uuid, gpuInstanceId)) {
                next = (i + 1) % n;
                return device;
            }
        }
        Device device = new Device(node, uuid, gpuInstanceId, hostnameLabel);
        devices.add(device);
        next = 0;
        return device;
    }

    /** One GpuScrape per node, devices in first-seen order; one scrape in the usual case of one node. */
    List<GpuScrape> scrapes(Instant time, String target) {
        if (devices.isEmpty()) {
            return List.of();
        }
        String first = devices.getFirst().node;
        boolean oneNode = devices.stream().allMatch(d -> d.node.equals(first));
        if (oneNode) {
            return List.of(new GpuScrape(time, first, target, readings(devices)));
        }
        Map<String, List<Device>> byNode = new LinkedHashMap<>();
        devices.forEach(
                d -> byNode.computeIfAbsent(d.node, k -> new ArrayList<>()).add(d));
        List<GpuScrape> scrapes = new ArrayList<>(byNode.size());
        byNode.forEach((node, list) -> scrapes.add(new GpuScrape(time, node, target, readings(list))));
        return scrapes;
    }

    private static List<GpuScrape.Device> readings(List<Device> devices) {
        GpuScrape.Device[] readings = new GpuScrape.Device[devices.size()];
        for (int i = 0; i < readings.length; i++) {
            readings[i] = devices.get(i).reading();
        }
        return List.of(readings);
    }

    /** What one scrape said about one device; the first non-empty attribute wins, the last value wins. */
    static final class Device {
        final String node;
        final String uuid;
        final String gpuInstanceId;
        final String hostnameLabel;
        String gpu;
        String modelName;
        String migProfile;
        String namespace;
        String pod;
        String container;
        private final FieldReadings readings = new FieldReadings();

        Device(String node, String uuid, String gpuInstanceId, String hostnameLabel) {
            this.node = node;
            this.uuid = uuid;
            this.gpuInstanceId = gpuInstanceId;
            this.hostnameLabel = hostnameLabel;
        }

        boolean is(String otherNode, String otherUuid, String otherGpuInstanceId) {
            return uuid.equals(otherUuid)
                    && Objects.equals(node, otherNode)
                    && Objects.equals(gpuInstanceId, otherGpuInstanceId);
        }

        void set(DcgmField field, double value) {
            readings.set(field, value);
        }

        GpuScrape.Device reading() {
            return readings.device(
                    uuid, gpu, modelName, gpuInstanceId, migProfile, hostnameLabel, namespace, pod, container);
        }
    }
}
