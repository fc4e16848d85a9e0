package io.gpuaas.quota.k8s;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.gpuaas.kube.kueue.v1beta2.ClusterQueue;
import io.gpuaas.kube.kueue.v1beta2.Cohort;
import io.gpuaas.kube.kueue.v1beta2.LocalQueue;
import io.gpuaas.kube.kueue.v1beta2.Workload;
import io.gpuaas.kube.kueue.v1beta2.WorkloadPriorityClass;
import io.gpuaas.kube.odh.v1.HardwareProfile;

/**
 * The Kubernetes kinds the projector reads or writes, each with its typed class (kube-models' generated classes
 * carry group, version, plural and scope, declared once in their CRD).
 */
public enum Kind {
    COHORT(Cohort.class),
    CLUSTER_QUEUE(ClusterQueue.class),
    LOCAL_QUEUE(LocalQueue.class),
    WORKLOAD(Workload.class),
    HARDWARE_PROFILE(HardwareProfile.class),
    WORKLOAD_PRIORITY_CLASS(WorkloadPriorityClass.class),
    NAMESPACE(Namespace.class);

    private final Class<? extends HasMetadata> type;

    Kind(Class<? extends HasMetadata> type) {
        this.type = type;
    }

    public Class<? extends HasMetadata> type() {
        return type;
    }

    public String apiVersion() {
        return HasMetadata.getApiVersion(type);
    }

    public String kind() {
        return HasMetadata.getKind(type);
    }

    public boolean namespaced() {
        return Namespaced.class.isAssignableFrom(type);
    }

    /** The CRD name, e.g. {@code clusterqueues.kueue.x-k8s.io}. */
    public String crdName() {
        return HasMetadata.getFullResourceName(type);
    }

    /** For generic (untyped) access, as tests and the benchmark's raw baselines use. */
    public ResourceDefinitionContext context() {
        return ResourceDefinitionContext.fromResourceType(type);
    }
}
