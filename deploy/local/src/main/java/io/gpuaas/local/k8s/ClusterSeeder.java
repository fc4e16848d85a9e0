package io.gpuaas.local.k8s;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.local.fleet.FleetLayout;
import io.gpuaas.local.fleet.GpuNode;
import io.gpuaas.testing.k8s.GpuaasCrd;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Seeds the in-memory API with what a GPU cluster running Kueue has before gpuaas does anything: GPU nodes with the
 * labels GPU feature discovery sets and the capacity the device plugin advertises, one ResourceFlavor per pool, the
 * cohort holding all capacity, and the demo tenants' namespaces.
 */
public final class ClusterSeeder {

    public static final String COHORT = "gpuaas-pool";
    public static final String TENANT_LABEL = "gpuaas.io/tenant";
    public static final String MANAGED_BY = "app.kubernetes.io/managed-by";

    private final KubernetesClient client;

    public ClusterSeeder(KubernetesClient client) {
        this.client = client;
    }

    public void seed(FleetLayout layout, PoolCatalog pools, List<Tenant> tenants) {
        layout.nodes().forEach(node -> client.nodes().resource(node(node)).create());
        for (Pool pool : pools.pools()) {
            client.genericKubernetesResources(GpuaasCrd.RESOURCE_FLAVOR.context()).resource(flavor(pool)).create();
        }
        client.genericKubernetesResources(GpuaasCrd.COHORT.context()).resource(cohort(pools)).create();
        for (Tenant tenant : tenants) {
            tenant.namespaces().forEach(ns -> client.namespaces().resource(namespace(ns, tenant.name())).create());
        }
    }

    static Node node(GpuNode node) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("kubernetes.io/hostname", node.name());
        labels.put("kubernetes.io/os", "linux");
        labels.put("kubernetes.io/arch", "amd64");
        labels.put("nvidia.com/gpu.present", "true");
        labels.put("nvidia.com/gpu.product", FleetLayout.PRODUCT_LABEL);
        labels.put("nvidia.com/gpu.count", Integer.toString(node.gpus()));
        labels.put("nvidia.com/gpu.memory", Integer.toString(FleetLayout.GPU_MEMORY_MIB));
        labels.put("nvidia.com/mig.capable", "true");
        labels.put("nvidia.com/mig.strategy", "mixed");
        labels.put("nvidia.com/mig.config", node.migConfig());
        labels.put("nvidia.com/mig.config.state", "success");
        node.capacity().forEach((resource, count) -> {
            if (resource.startsWith("nvidia.com/mig-")) {
                labels.put(resource + ".count", Integer.toString(count));
            }
        });
        Map<String, Quantity> capacity = new LinkedHashMap<>();
        capacity.put("cpu", new Quantity("224"));
        capacity.put("memory", new Quantity("2063937Mi"));
        capacity.put("pods", new Quantity("110"));
        node.capacity().forEach((resource, count) -> capacity.put(resource, new Quantity(Integer.toString(count))));
        return new NodeBuilder()
                .withNewMetadata().withName(node.name()).withLabels(labels).endMetadata()
                .withNewStatus()
                    .withCapacity(capacity).withAllocatable(capacity)
                    .addNewCondition().withType("Ready").withStatus("True").withReason("KubeletReady")
                        .withMessage("kubelet is posting ready status").endCondition()
                .endStatus()
                .build();
    }

    static GenericKubernetesResource flavor(Pool pool) {
        GenericKubernetesResource flavor = kueue(GpuaasCrd.RESOURCE_FLAVOR, pool.flavor());
        Map<String, String> nodeLabels = new LinkedHashMap<>();
        nodeLabels.put("nvidia.com/gpu.product", FleetLayout.PRODUCT_LABEL);
        nodeLabels.put("nvidia.com/mig.config", pool.migProfile() == null ? FleetLayout.MIG_DISABLED : FleetLayout.MIG_MIXED);
        flavor.setAdditionalProperty("spec", Map.of("nodeLabels", nodeLabels));
        return flavor;
    }

    /** The cohort with all capacity as its own nominal quota: nothing is reserved before the first booking. */
    static GenericKubernetesResource cohort(PoolCatalog pools) {
        GenericKubernetesResource cohort = kueue(GpuaasCrd.COHORT, COHORT);
        List<Map<String, Object>> groups = pools.pools().stream().map(pool -> Map.<String, Object>of(
                "coveredResources", List.of(pool.resource()),
                "flavors", List.of(Map.of("name", pool.flavor(), "resources",
                        List.of(Map.of("name", pool.resource(), "nominalQuota", Integer.toString(pool.capacity()))))))).toList();
        cohort.setAdditionalProperty("spec", Map.of("resourceGroups", groups));
        return cohort;
    }

    static Namespace namespace(String name, String tenant) {
        return new NamespaceBuilder().withNewMetadata().withName(name)
                .withLabels(Map.of(TENANT_LABEL, tenant, "kubernetes.io/metadata.name", name)).endMetadata().build();
    }

    private static GenericKubernetesResource kueue(GpuaasCrd crd, String name) {
        GenericKubernetesResource resource = new GenericKubernetesResource();
        resource.setApiVersion(crd.apiVersion());
        resource.setKind(crd.kind());
        resource.setMetadata(new ObjectMetaBuilder().withName(name).withLabels(Map.of(MANAGED_BY, "gpuaas")).build());
        return resource;
    }
}
