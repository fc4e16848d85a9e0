package io.gpuaas.reclaim.stream;

import io.gpuaas.events.gpu.GpuActivity;
import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.events.gpu.GpuScrapeEvent;
import io.gpuaas.reclaim.metrics.ReclaimerMetrics;
import io.gpuaas.reclaim.model.AttributedSample;
import io.gpuaas.reclaim.model.Owner;
import io.gpuaas.reclaim.model.OwnerLookup;
import io.gpuaas.reclaim.model.WorkloadSamples;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;

/**
 * First step of the pipeline: each device of a scrape becomes a sample of the workload owning the pod it is
 * attributed to, and the scrape's samples of one workload travel together, keyed by that workload. Readings of
 * unattributed devices or of pods that are no Ray worker or KServe predictor are counted and dropped: nothing else is
 * ours to reclaim. A device is known by {@code node/uuid[/gpuInstanceId]}, so it keeps its identity whatever the
 * exporter's own labels say.
 */
public final class SampleAttributor {

    private static final String GPU_UTIL = "GPU_UTIL";

    private final OwnerLookup owners;
    private final ReclaimerMetrics metrics;

    public SampleAttributor(OwnerLookup owners, ReclaimerMetrics metrics) {
        this.owners = owners;
        this.metrics = metrics;
    }

    /** Hands one {@link WorkloadSamples} per workload of {@code event} to {@code out}, keyed by workload. */
    public void attribute(GpuScrapeEvent event, BiConsumer<String, WorkloadSamples> out) {
        switch (event) {
            case GpuScrape scrape -> attribute(scrape, out);
        }
    }

    /** One workload's samples of the scrape being attributed. */
    private record Group(String key, Owner owner, List<AttributedSample> samples) {}

    private void attribute(GpuScrape scrape, BiConsumer<String, WorkloadSamples> out) {
        if (scrape.time() == null) {
            metrics.samples("unattributed", scrape.devices().size());
            return;
        }
        long timeMillis = scrape.time().toEpochMilli();
        // A node holds a handful of workloads at most: a list searched in order beats a map here.
        List<Group> groups = new ArrayList<>(2);
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
            group(groups, o)
                    .samples()
                    .add(new AttributedSample(
                            o.workload(),
                            scrape.deviceKey(device),
                            device.pod(),
                            o.group(),
                            timeMillis,
                            device.utilization(),
                            o.podStartMillis(),
                            GpuActivity.mediaBusy(device),
                            GPU_UTIL.equals(device.utilizationSource())));
        }
        for (Group g : groups) {
            out.accept(g.key(), new WorkloadSamples(g.owner().workload(), g.samples()));
        }
    }

    private static Group group(List<Group> groups, Owner owner) {
        String key = owner.workload().key();
        for (Group g : groups) {
            if (g.key().equals(key)) {
                return g;
            }
        }
        Group g = new Group(key, owner, new ArrayList<>(8));
        groups.add(g);
        return g;
    }
}
