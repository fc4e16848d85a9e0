package io.gpuaas.reclaim.model;

import io.gpuaas.events.reclaim.WorkloadRef;
import java.util.List;

/**
 * The samples one scrape holds for one workload (its devices on that node, all read at the same time): what travels,
 * keyed by workload, from the attribution step to the window step. One record per workload and scrape rather than
 * per device, because a node's GPUs usually serve one workload and each record through the repartition topic and
 * the window store costs far more than the samples in it.
 *
 * @param workload the workload every sample belongs to
 * @param samples  at least one, all of {@code workload}, in the scrape's order
 */
public record WorkloadSamples(WorkloadRef workload, List<AttributedSample> samples) {

    public WorkloadSamples {
        samples = List.copyOf(samples);
    }
}
