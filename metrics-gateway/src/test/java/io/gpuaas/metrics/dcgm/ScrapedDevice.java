package io.gpuaas.metrics.dcgm;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.gpu.GpuScrape;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** A device as one scrape reported it: its key on the scrape's node, the scrape's time, and its reading. */
record ScrapedDevice(String deviceKey, Instant time, GpuScrape.Device device) {
    String uuid() {
        return device.uuid();
    }

    Integer gpuIndex() {
        return device.gpuIndex();
    }

    String modelName() {
        return device.modelName();
    }

    String gpuInstanceId() {
        return device.gpuInstanceId();
    }

    String migProfile() {
        return device.migProfile();
    }

    String namespace() {
        return device.namespace();
    }

    String pod() {
        return device.pod();
    }

    String container() {
        return device.container();
    }

    boolean attributed() {
        return device.attributed();
    }

    Double utilization() {
        return device.utilization();
    }

    String utilizationSource() {
        return device.utilizationSource();
    }

    Double memoryUsedMiB() {
        return device.memoryUsedMiB();
    }

    Double memoryFreeMiB() {
        return device.memoryFreeMiB();
    }

    Double powerWatts() {
        return device.powerWatts();
    }

    /** Every device of every GpuScrape the parser made, in order. */
    static List<ScrapedDevice> all(DcgmScrape scrape) {
        List<ScrapedDevice> seen = new ArrayList<>();
        for (GpuScrape node : scrape.scrapes()) {
            node.devices().forEach(d -> seen.add(new ScrapedDevice(node.deviceKey(d), node.time(), d)));
        }
        assertThat(seen).hasSize(scrape.devices());
        return seen;
    }
}
