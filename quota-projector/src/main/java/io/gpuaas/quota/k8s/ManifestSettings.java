package io.gpuaas.quota.k8s;

import io.gpuaas.quota.config.NodeResourceSettings;

/**
 * How desired quota is rendered into Kueue objects.
 *
 * @param cohortName       the shared Cohort, e.g. {@code gpuaas-pool}
 * @param localQueueName   the LocalQueue created in each tenant namespace, e.g. {@code gpuaas}
 * @param allowBorrowing   whether tenant queues may borrow unreserved or idle capacity from the cohort
 * @param hardwareProfiles whether to render OpenShift AI HardwareProfiles (only when that CRD is installed)
 * @param nodeResources    the cpu and memory every ClusterQueue covers besides the GPU cells
 */
public record ManifestSettings(
        String cohortName,
        String localQueueName,
        boolean allowBorrowing,
        boolean hardwareProfiles,
        NodeResourceSettings nodeResources) {

    /** With the default cpu/memory coverage. */
    public ManifestSettings(
            String cohortName, String localQueueName, boolean allowBorrowing, boolean hardwareProfiles) {
        this(cohortName, localQueueName, allowBorrowing, hardwareProfiles, NodeResourceSettings.defaults());
    }

    public ManifestSettings withHardwareProfiles(boolean enabled) {
        return new ManifestSettings(cohortName, localQueueName, allowBorrowing, enabled, nodeResources);
    }
}
