package io.gpuaas.reclaim.stream;

import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.events.gpu.GpuScrapeEvent;
import io.gpuaas.reclaim.metrics.ReclaimerMetrics;
import io.gpuaas.reclaim.model.AttributedSample;
import io.gpuaas.reclaim.model.Owner;
import io.gpuaas.reclaim.model.OwnerLookup;
import java.util.Optional;
import java.util.function.BiConsumer;

/**
 * First step of the pipeline: a scrape is exploded into its devices, and each device's reading becomes a sample of
 * the workload owning the pod it is attributed to, keyed by that workload. Readings of unattributed devices or of pods
 * that are no Ray worker or KServe predictor are counted and dropped: nothing else is ours to reclaim. A device is
 * known by {@code node/uuid[/gpuInstanceId]}, so it keeps its identity whatever the exporter's own labels say.
 */
public final class SampleAttributor {

    private final OwnerLookup owners;
    private final ReclaimerMetrics metrics;

    public SampleAttributor(OwnerLookup owners, ReclaimerMetrics metrics) {
        this.owners = owners;
        this.metrics = metrics;
    }

    /** Hands every attributed device sample of {@code event} to {@code out}, keyed by workload; counts the others. */
    public void attribute(GpuScrapeEvent event, BiConsumer<String, AttributedSample> out) {
        switch (event) {
            case GpuScrape scrape -> attribute(scrape, out);
        }
    }

    private void attribute(GpuScrape scrape, BiConsumer<String, AttributedSample> out) {
        if (scrape.time() == null) {
            scrape.devices().forEach(d -> metrics.sample("unattributed"));
            return;
        }
        long timeMillis = scrape.time().toEpochMilli();
        for (GpuScrape.Device device : scrape.devices()) {
            if (!device.attributed()) {
                metrics.sample("unattributed");
                continue;
            }
            Optional<Owner> owner = owners.ownerOf(device.namespace(), device.pod());
            if (owner.isEmpty()) {
                metrics.sample("not_reclaimable");
                continue;
            }
            Owner o = owner.get();
            metrics.sample("attributed");
            out.accept(
                    o.workload().key(),
                    new AttributedSample(
                            o.workload(),
                            scrape.deviceKey(device),
                            device.pod(),
                            o.group(),
                            timeMillis,
                            device.utilization(),
                            o.podStartMillis()));
        }
    }
}
