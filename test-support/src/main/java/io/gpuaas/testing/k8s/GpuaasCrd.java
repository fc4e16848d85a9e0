package io.gpuaas.testing.k8s;

import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/**
 * The custom resources gpuaas reads or writes, as registered in {@link KubernetesApi}. Use
 * {@link #context()} with {@code client.genericKubernetesResources(...)}.
 */
public enum GpuaasCrd {
    CLUSTER_QUEUE("kueue.x-k8s.io", "v1beta2", "ClusterQueue", "clusterqueues", false, "kueue-clusterqueues.yaml"),
    LOCAL_QUEUE("kueue.x-k8s.io", "v1beta2", "LocalQueue", "localqueues", true, "kueue-localqueues.yaml"),
    RESOURCE_FLAVOR(
            "kueue.x-k8s.io", "v1beta2", "ResourceFlavor", "resourceflavors", false, "kueue-resourceflavors.yaml"),
    COHORT("kueue.x-k8s.io", "v1beta2", "Cohort", "cohorts", false, "kueue-cohorts.yaml"),
    WORKLOAD("kueue.x-k8s.io", "v1beta2", "Workload", "workloads", true, "kueue-workloads.yaml"),
    WORKLOAD_PRIORITY_CLASS(
            "kueue.x-k8s.io",
            "v1beta2",
            "WorkloadPriorityClass",
            "workloadpriorityclasses",
            false,
            "kueue-workloadpriorityclasses.yaml"),
    RAY_CLUSTER("ray.io", "v1", "RayCluster", "rayclusters", true, "ray-rayclusters.yaml"),
    INFERENCE_SERVICE(
            "serving.kserve.io",
            "v1beta1",
            "InferenceService",
            "inferenceservices",
            true,
            "kserve-inferenceservices.yaml"),
    HARDWARE_PROFILE(
            "infrastructure.opendatahub.io",
            "v1",
            "HardwareProfile",
            "hardwareprofiles",
            true,
            "odh-hardwareprofiles.yaml");

    private final String group;
    private final String version;
    private final String kind;
    private final String plural;
    private final boolean namespaced;
    private final String file;

    GpuaasCrd(String group, String version, String kind, String plural, boolean namespaced, String file) {
        this.group = group;
        this.version = version;
        this.kind = kind;
        this.plural = plural;
        this.namespaced = namespaced;
        this.file = file;
    }

    public String group() {
        return group;
    }

    public String version() {
        return version;
    }

    public String kind() {
        return kind;
    }

    public String plural() {
        return plural;
    }

    public boolean namespaced() {
        return namespaced;
    }

    /** {@code group/version}, as in an object's {@code apiVersion}. */
    public String apiVersion() {
        return group + "/" + version;
    }

    /** The CRD's metadata.name: {@code <plural>.<group>}. */
    public String crdName() {
        return plural + "." + group;
    }

    /** Classpath location of the project-written CRD YAML (in kube-models, which generates its classes from it). */
    public String resourcePath() {
        return "/crds/" + file;
    }

    public ResourceDefinitionContext context() {
        return new ResourceDefinitionContext.Builder()
                .withGroup(group)
                .withVersion(version)
                .withKind(kind)
                .withPlural(plural)
                .withNamespaced(namespaced)
                .build();
    }
}
