package io.gpuaas.reclaim.model;

import io.gpuaas.events.reclaim.KeepRequested;
import io.gpuaas.events.reclaim.WorkloadRef;
import java.util.List;

/**
 * The samples one scrape holds for one workload (its devices on that node, all read at the same time): what travels,
 * keyed by workload, from the attribution step to the window step. One record per workload and scrape rather than
 * per device, because a node's GPUs usually serve one workload and each record through the repartition topic and
 * the window store costs far more than the samples in it.
 *
 * <p>A team's "keep it" answer travels the same way ({@link #keep()} set, no samples), so it reaches the workload's
 * windows in the same task, in order with its samples, and is decided in the same transaction as they are.
 *
 * @param workload the workload every sample belongs to
 * @param samples  all of {@code workload}, in the scrape's order; at least one unless {@code keep} is set
 * @param keep     a keep answer for {@code workload}, or null for a scrape's samples
 */
public record WorkloadSamples(WorkloadRef workload, List<AttributedSample> samples, KeepRequested keep) {

    public WorkloadSamples {
        samples = List.copyOf(samples);
    }

    /** One scrape's samples of a workload. */
    public WorkloadSamples(WorkloadRef workload, List<AttributedSample> samples) {
        this(workload, samples, null);
    }

    /** A keep answer on its way to the workload's windows. */
    public static WorkloadSamples keep(KeepRequested keep) {
        return new WorkloadSamples(keep.workload(), List.of(), keep);
    }
}
