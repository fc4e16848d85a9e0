package io.gpuaas.quota.config;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;

/**
 * The cpu and memory every gpuaas ClusterQueue covers ({@code gpuaas.quota.node-resources.*}). Kueue admits a
 * Workload only if its ClusterQueue covers every resource its pods request, and GPU pods request cpu and memory too.
 * These are a per-queue ceiling, not a share of the cluster: each queue gets them as {@code nominalQuota} with
 * {@code borrowingLimit: 0}, so no Workload ever borrows cpu or memory (a borrower could not reclaim its booked GPUs)
 * and GPU quota alone decides what is admitted. Where to put the kube-scheduler's job: deploy/README.md, "Kueue".
 *
 * @param flavor the ResourceFlavor (no node labels) the cpu/memory group names; blank: cover nothing, for clusters
 *               whose Kueue Configuration lists cpu and memory in {@code resources.excludeResourcePrefixes}
 * @param cpu    nominal cpu per ClusterQueue (a Kubernetes quantity)
 * @param memory nominal memory per ClusterQueue (a Kubernetes quantity)
 */
@ConfigurationProperties("gpuaas.quota.node-resources")
public record NodeResourceSettings(
        @Bindable(defaultValue = DEFAULT_FLAVOR) String flavor,
        @Bindable(defaultValue = "100000") String cpu,
        @Bindable(defaultValue = "1Pi") String memory) {

    public static final String CPU = "cpu";
    public static final String MEMORY = "memory";

    /** The ResourceFlavor deploy/kubernetes ships for cpu and memory. */
    public static final String DEFAULT_FLAVOR = "gpuaas-any-node";

    public NodeResourceSettings {
        flavor = flavor == null ? "" : flavor.strip();
    }

    /** The defaults, for code built without the container (tests, benchmarks). */
    public static NodeResourceSettings defaults() {
        return new NodeResourceSettings(DEFAULT_FLAVOR, "100000", "1Pi");
    }

    /** Whether gpuaas queues cover cpu and memory at all. */
    public boolean covered() {
        return !flavor.isEmpty();
    }
}
