package io.gpuaas.reclaim.model;

import io.gpuaas.events.reclaim.WorkloadRef;

/**
 * A GPU sample with its owner resolved: what travels, keyed by workload, from the attribution step to the window
 * step.
 *
 * @param utilization busy ratio, null when the exporter had none
 */
public record AttributedSample(
        WorkloadRef workload,
        String device,
        String pod,
        String group,
        long timeMillis,
        Double utilization,
        long podStartMillis) {}
