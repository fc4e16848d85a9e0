package io.gpuaas.reclaim.stream;

import io.gpuaas.events.gpu.GpuSample;
import io.gpuaas.events.gpu.GpuSampleEvent;
import io.gpuaas.reclaim.metrics.ReclaimerMetrics;
import io.gpuaas.reclaim.model.AttributedSample;
import io.gpuaas.reclaim.model.Owner;
import io.gpuaas.reclaim.model.OwnerLookup;
import java.util.Optional;
import org.apache.kafka.streams.KeyValue;

/**
 * First step of the pipeline: a device sample becomes a sample of the workload owning the pod it is attributed to,
 * keyed by that workload. Samples of unattributed devices or of pods that are no Ray worker or KServe predictor
 * are counted and dropped: nothing else is ours to reclaim.
 */
public final class SampleAttributor {

    private final OwnerLookup owners;
    private final ReclaimerMetrics metrics;

    public SampleAttributor(OwnerLookup owners, ReclaimerMetrics metrics) {
        this.owners = owners;
        this.metrics = metrics;
    }

    /** The sample keyed by its workload, or null when it is dropped (and counted). */
    public KeyValue<String, AttributedSample> attribute(GpuSampleEvent event) {
        return switch (event) {
            case GpuSample sample -> attribute(sample);
        };
    }

    private KeyValue<String, AttributedSample> attribute(GpuSample sample) {
        if (!sample.attributed() || sample.time() == null) {
            metrics.sample("unattributed");
            return null;
        }
        Optional<Owner> owner = owners.ownerOf(sample.namespace(), sample.pod());
        if (owner.isEmpty()) {
            metrics.sample("not_reclaimable");
            return null;
        }
        Owner o = owner.get();
        metrics.sample("attributed");
        return KeyValue.pair(
                o.workload().key(),
                new AttributedSample(
                        o.workload(),
                        sample.deviceKey(),
                        sample.pod(),
                        o.group(),
                        sample.time().toEpochMilli(),
                        sample.utilization(),
                        o.podStartMillis()));
    }
}
