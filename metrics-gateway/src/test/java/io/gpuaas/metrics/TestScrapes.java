package io.gpuaas.metrics;

import io.gpuaas.events.gpu.GpuScrape;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Scrapes for tests that feed the gateway's projections directly. */
public final class TestScrapes {

    private TestScrapes() {}

    /** A scrape of {@code node} with one H200 attributed to pod {@code worker-<uuid>} in {@code namespace}. */
    public static GpuScrape attributed(String node, String uuid, String namespace, Instant time, double utilization) {
        return new GpuScrape(
                time,
                node,
                "10.0.0.1:9400",
                List.of(new GpuScrape.Device(
                        uuid,
                        0,
                        "NVIDIA H200",
                        null,
                        null,
                        "dcgm-exporter-test",
                        namespace,
                        "worker-" + uuid,
                        "main",
                        utilization,
                        "GR_ENGINE_ACTIVE",
                        100.0,
                        100.0,
                        300.0)));
    }

    /** One scrape of the first one's node and time holding the devices of all of them. */
    public static GpuScrape merged(GpuScrape... scrapes) {
        GpuScrape first = scrapes[0];
        List<GpuScrape.Device> devices = new ArrayList<>();
        for (GpuScrape scrape : scrapes) {
            devices.addAll(scrape.devices());
        }
        return new GpuScrape(first.time(), first.node(), first.target(), devices);
    }
}
