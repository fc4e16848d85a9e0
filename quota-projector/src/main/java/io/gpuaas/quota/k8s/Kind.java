package io.gpuaas.quota.k8s;

import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/** The Kubernetes kinds the projector reads or writes, with what fabric8 needs to address them generically. */
public enum Kind {
    COHORT("kueue.x-k8s.io", "v1beta2", "Cohort", "cohorts", false),
    CLUSTER_QUEUE("kueue.x-k8s.io", "v1beta2", "ClusterQueue", "clusterqueues", false),
    LOCAL_QUEUE("kueue.x-k8s.io", "v1beta2", "LocalQueue", "localqueues", true),
    WORKLOAD("kueue.x-k8s.io", "v1beta2", "Workload", "workloads", true),
    HARDWARE_PROFILE("infrastructure.opendatahub.io", "v1", "HardwareProfile", "hardwareprofiles", true),
    NAMESPACE("", "v1", "Namespace", "namespaces", false);

    private final String group;
    private final String version;
    private final String kind;
    private final String plural;
    private final boolean namespaced;

    Kind(String group, String version, String kind, String plural, boolean namespaced) {
        this.group = group;
        this.version = version;
        this.kind = kind;
        this.plural = plural;
        this.namespaced = namespaced;
    }

    public String apiVersion() {
        return group.isEmpty() ? version : group + "/" + version;
    }

    public String kind() {
        return kind;
    }

    public boolean namespaced() {
        return namespaced;
    }

    /** The CRD name, e.g. {@code clusterqueues.kueue.x-k8s.io}. */
    public String crdName() {
        return plural + "." + group;
    }

    public ResourceDefinitionContext context() {
        return new ResourceDefinitionContext.Builder()
                .withGroup(group).withVersion(version).withKind(kind).withPlural(plural).withNamespaced(namespaced)
                .build();
    }
}
