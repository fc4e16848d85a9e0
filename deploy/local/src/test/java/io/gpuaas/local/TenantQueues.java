package io.gpuaas.local;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.events.Labels;
import io.gpuaas.local.k8s.ClusterSeeder;
import io.gpuaas.testing.k8s.GpuaasCrd;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A tenant's ClusterQueue {@code gpuaas-<tenant>} and LocalQueue {@code gpuaas}, shaped as quota-projector writes
 * them: whole GPUs and MIG 1g slices, plus (unless left out on purpose) cpu and memory on
 * {@link ClusterSeeder#NODE_FLAVOR} with the shipped ceiling and {@code borrowingLimit: 0}.
 */
final class TenantQueues {

    static final String MIG = "nvidia.com/mig-1g.18gb";

    private TenantQueues() {}

    /**
     * @param borrowingLimit of the GPU cells, null for unlimited
     * @param coverCpuMemory whether the queue covers cpu and memory, as every queue gpuaas ships does
     */
    static void book(KubernetesClient client, String tenant, int mig1g, String borrowingLimit, boolean coverCpuMemory) {
        List<Map<String, Object>> groups = new ArrayList<>(List.of(
                group("h200", "nvidia.com/gpu", 0, borrowingLimit),
                group("h200-mig-1g.18gb", MIG, mig1g, borrowingLimit)));
        if (coverCpuMemory) {
            groups.add(Map.of(
                    "coveredResources",
                    List.of("cpu", "memory"),
                    "flavors",
                    List.of(Map.of(
                            "name",
                            ClusterSeeder.NODE_FLAVOR,
                            "resources",
                            List.of(
                                    Map.of("name", "cpu", "nominalQuota", "100000", "borrowingLimit", "0"),
                                    Map.of("name", "memory", "nominalQuota", "1Pi", "borrowingLimit", "0"))))));
        }
        GenericKubernetesResource queue = new GenericKubernetesResource();
        queue.setApiVersion(GpuaasCrd.CLUSTER_QUEUE.apiVersion());
        queue.setKind("ClusterQueue");
        queue.setMetadata(new ObjectMetaBuilder().withName("gpuaas-" + tenant).build());
        queue.setAdditionalProperty(
                "spec",
                Map.of(
                        "cohortName",
                        ClusterSeeder.COHORT,
                        "namespaceSelector",
                        Map.of("matchLabels", Map.of(Labels.TENANT, tenant)),
                        "resourceGroups",
                        groups));
        client.genericKubernetesResources(GpuaasCrd.CLUSTER_QUEUE.context())
                .resource(queue)
                .create();
        GenericKubernetesResource local = new GenericKubernetesResource();
        local.setApiVersion(GpuaasCrd.LOCAL_QUEUE.apiVersion());
        local.setKind("LocalQueue");
        local.setMetadata(
                new ObjectMetaBuilder().withName("gpuaas").withNamespace(tenant).build());
        local.setAdditionalProperty("spec", Map.of("clusterQueue", "gpuaas-" + tenant));
        client.genericKubernetesResources(GpuaasCrd.LOCAL_QUEUE.context())
                .inNamespace(tenant)
                .resource(local)
                .create();
    }

    // lendingLimit 0 keeps a booking for its tenant; borrowingLimit (null = unlimited) caps use of the cohort's spare.
    private static Map<String, Object> group(String flavor, String resource, int nominal, String borrowingLimit) {
        Map<String, Object> quota = new LinkedHashMap<>(
                Map.of("name", resource, "nominalQuota", Integer.toString(nominal), "lendingLimit", "0"));
        if (borrowingLimit != null) {
            quota.put("borrowingLimit", borrowingLimit);
        }
        return Map.of(
                "coveredResources",
                List.of(resource),
                "flavors",
                List.of(Map.of("name", flavor, "resources", List.of(quota))));
    }
}
