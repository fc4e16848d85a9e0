package io.gpuaas.reclaim.model;

import io.gpuaas.events.reclaim.WorkloadRef;

/**
 * A GPU sample with its owner resolved: what travels, keyed by workload, from the attribution step to the window
 * step.
 *
 * @param utilization busy ratio, null when the exporter had none
 * @param mediaBusy   the device's video decoder or encoder worked (events' {@code GpuActivity}): busy whatever the
 *                    utilization
 * @param gpuUtilOnly the utilization is NVML's GPU_UTIL (no engine-activity field): judged over at least
 *                    {@link IdlePolicy#gpuUtilMinWindow()}
 */
public record AttributedSample(
        WorkloadRef workload,
        String device,
        String pod,
        String group,
        long timeMillis,
        Double utilization,
        long podStartMillis,
        boolean mediaBusy,
        boolean gpuUtilOnly) {

    /** A sample read from graphics-engine activity, with no video work. */
    public AttributedSample(
            WorkloadRef workload,
            String device,
            String pod,
            String group,
            long timeMillis,
            Double utilization,
            long podStartMillis) {
        this(workload, device, pod, group, timeMillis, utilization, podStartMillis, false, false);
    }
}
