package io.gpuaas.local.k8s;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.events.Labels;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.kube.kueue.v1beta2.Cohort;
import io.gpuaas.kube.kueue.v1beta2.CohortSpec;
import io.gpuaas.kube.kueue.v1beta2.ResourceFlavor;
import io.gpuaas.kube.kueue.v1beta2.ResourceFlavorSpec;
import io.gpuaas.local.fleet.FleetLayout;
import io.gpuaas.local.fleet.GpuNode;
import io.gpuaas.local.mig.MigPartedConfig;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Seeds the in-memory API with what a GPU cluster running Kueue has before gpuaas does anything: GPU nodes with the
 * labels GPU feature discovery sets and the capacity the device plugin advertises, one ResourceFlavor per pool and
 * {@value #NODE_FLAVOR} for cpu and memory (as deploy/kubernetes ships them), the cohort holding all capacity, and
 * the demo tenants' namespaces. A flexible pool's nodes carry {@value Labels#POOL}, which its flavor selects, and
 * the namespace {@value MigPartedConfig#NAMESPACE} exists for quota-projector's mig-parted ConfigMap.
 */
public final class ClusterSeeder {

    public static final String COHORT = "gpuaas-pool";
    public static final String MANAGED_BY = "app.kubernetes.io/managed-by";
    /** The flavor quota-projector's queues cover cpu and memory on ({@code gpuaas.quota.node-resources.flavor}). */
    public static final String NODE_FLAVOR = "gpuaas-any-node";

    private final KubernetesClient client;

    public ClusterSeeder(KubernetesClient client) {
        this.client = client;
    }

    public void seed(FleetLayout layout, PoolCatalog pools, List<Tenant> tenants) {
        layout.nodes().forEach(node -> client.nodes().resource(node(node)).create());
        for (Pool pool : pools.pools()) {
            client.resources(ResourceFlavor.class).resource(flavor(pool)).create();
        }
        ResourceFlavor anyNode = new ResourceFlavor();
        anyNode.setMetadata(metadata(NODE_FLAVOR));
        anyNode.setSpec(new ResourceFlavorSpec());
        client.resources(ResourceFlavor.class).resource(anyNode).create();
        client.resources(Cohort.class).resource(cohort(pools)).create();
        if (!layout.flexibleNodes().isEmpty()) {
            client.namespaces()
                    .resource(new NamespaceBuilder()
                            .withNewMetadata()
                            .withName(MigPartedConfig.NAMESPACE)
                            .withLabels(Map.of("kubernetes.io/metadata.name", MigPartedConfig.NAMESPACE))
                            .endMetadata()
                            .build())
                    .create();
        }
        for (Tenant tenant : tenants) {
            tenant.namespaces().forEach(ns -> client.namespaces()
                    .resource(namespace(ns, tenant.name()))
                    .create());
        }
    }

    static Node node(GpuNode node) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("kubernetes.io/hostname", node.name());
        labels.put("kubernetes.io/os", "linux");
        labels.put("kubernetes.io/arch", "amd64");
        if (node.flexible()) {
            labels.put(Labels.POOL, node.flexiblePool());
        }
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
                .withNewMetadata()
                .withName(node.name())
                .withLabels(labels)
                .endMetadata()
                .withNewStatus()
                .withCapacity(capacity)
                .withAllocatable(capacity)
                .addNewCondition()
                .withType("Ready")
                .withStatus("True")
                .withReason("KubeletReady")
                .withMessage("kubelet is posting ready status")
                .endCondition()
                .endStatus()
                .build();
    }

    static ResourceFlavor flavor(Pool pool) {
        Map<String, String> nodeLabels = new LinkedHashMap<>();
        nodeLabels.put("nvidia.com/gpu.product", FleetLayout.PRODUCT_LABEL);
        if (pool.flexible()) {
            // Its nodes' mig.config changes with every layout; the pool label stays.
            nodeLabels.put(Labels.POOL, pool.id());
        } else {
            nodeLabels.put(
                    "nvidia.com/mig.config",
                    pool.migProfile() == null ? FleetLayout.MIG_DISABLED : FleetLayout.MIG_MIXED);
        }
        ResourceFlavorSpec spec = new ResourceFlavorSpec();
        spec.setNodeLabels(nodeLabels);
        ResourceFlavor flavor = new ResourceFlavor();
        flavor.setMetadata(metadata(pool.flavor()));
        flavor.setSpec(spec);
        return flavor;
    }

    /**
     * The cohort with all capacity as its own nominal quota: nothing is reserved before the first booking. A flexible
     * pool offers, under its one flavor, its GPUs whole and as many instances of each bookable profile as its GPUs
     * hold with that profile alone ({@code k} per GPU). Flavors sharing a resource share a resource group, as Kueue
     * requires, each listing every resource of the group (0 where it has none).
     */
    static Cohort cohort(PoolCatalog pools) {
        CohortSpec spec = new CohortSpec();
        spec.setResourceGroups(CohortGroups.of(
                pools.pools().stream().map(ClusterSeeder::capacity).toList()));
        Cohort cohort = new Cohort();
        cohort.setMetadata(metadata(COHORT));
        cohort.setSpec(spec);
        return cohort;
    }

    private static CohortGroups.FlavorCapacity capacity(Pool pool) {
        Map<String, Integer> units = new LinkedHashMap<>();
        units.put(pool.resource(), pool.capacity());
        for (String profile : pool.bookableProfiles()) {
            units.put(pool.resourceFor(profile), pool.capacity() * FleetLayout.GEOMETRY.mostInstances(profile));
        }
        return new CohortGroups.FlavorCapacity(pool.flavor(), units);
    }

    static Namespace namespace(String name, String tenant) {
        return new NamespaceBuilder()
                .withNewMetadata()
                .withName(name)
                .withLabels(Map.of(Labels.TENANT, tenant, "kubernetes.io/metadata.name", name))
                .endMetadata()
                .build();
    }

    private static ObjectMeta metadata(String name) {
        return new ObjectMetaBuilder()
                .withName(name)
                .withLabels(Map.of(MANAGED_BY, "gpuaas"))
                .build();
    }
}
