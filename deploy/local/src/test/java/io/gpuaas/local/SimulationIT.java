package io.gpuaas.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.local.fleet.DeviceAllocator;
import io.gpuaas.local.fleet.FleetLayout;
import io.gpuaas.local.k8s.ClusterSeeder;
import io.gpuaas.local.k8s.DemoWorkloads;
import io.gpuaas.testing.k8s.KubernetesApi;
import io.gpuaas.local.k8s.Tenant;
import io.gpuaas.local.model.Nested;
import io.gpuaas.testing.k8s.GpuaasCrd;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Kueue and operator stand-ins and the device allocator against the in-memory API, stepped pass by pass. */
class SimulationIT {

    private static final String MIG = "nvidia.com/mig-1g.18gb";

    private static final FleetLayout LAYOUT = FleetLayout.of(16);
    private static KubernetesApi api;
    private static KubernetesClient client;
    private DeviceAllocator allocator;
    private SimulationLoop loop;

    @BeforeAll
    static void seed() {
        api = KubernetesApi.start(0);
        client = api.client();
        new ClusterSeeder(client).seed(LAYOUT, LAYOUT.pools(), Tenant.demo(2));
    }

    @AfterAll
    static void stop() {
        api.close();
    }

    @BeforeEach
    void freshSimulation() {
        allocator = new DeviceAllocator(client, LAYOUT);
        loop = new SimulationLoop(client, allocator);
    }

    // Each test books and runs its own things; the nodes, flavors, cohort and namespaces stay.
    @AfterEach
    void removeWorkloadsAndQueues() {
        loop.close();
        for (GpuaasCrd crd : List.of(GpuaasCrd.RAY_CLUSTER, GpuaasCrd.INFERENCE_SERVICE, GpuaasCrd.WORKLOAD,
                GpuaasCrd.LOCAL_QUEUE)) {
            client.genericKubernetesResources(crd.context()).inAnyNamespace().delete();
        }
        client.genericKubernetesResources(GpuaasCrd.CLUSTER_QUEUE.context()).delete();
        client.pods().inAnyNamespace().delete();
    }

    @Test
    void shouldAdmitRunAndAttributeARayClusterWhenItsTenantHasQuota() {
        bookQuota("team-a", 2);
        create(GpuaasCrd.RAY_CLUSTER, "team-a", DemoWorkloads.rayCluster("team-a", "train", MIG, 2));

        loop.pass();

        GenericKubernetesResource workload = onlyWorkload("team-a");
        assertThat(conditionStatus(workload, "Admitted")).isEqualTo("True");
        assertThat(Nested.string(workload.getAdditionalProperties(), "status", "admission", "clusterQueue")).hasValue("gpuaas-team-a");
        assertThat(workload.getMetadata().getOwnerReferences().getFirst().getName()).isEqualTo("train");
        List<Pod> workers = client.pods().inNamespace("team-a").withLabel("ray.io/node-type", "worker").list().getItems();
        assertThat(workers).hasSize(2).allSatisfy(p -> {
            assertThat(p.getMetadata().getLabels()).containsEntry("ray.io/cluster", "train").containsEntry("ray.io/group", "gpu-workers");
            assertThat(p.getStatus().getPhase()).isEqualTo("Running");
            assertThat(p.getSpec().getNodeName()).isEqualTo("gpu-node-2");
        });
        assertThat(allocator.attributions()).hasSize(2).allSatisfy((device, pod) -> assertThat(pod.namespace()).isEqualTo("team-a"));
        assertThat(Nested.bool(rayCluster("train").getAdditionalProperties(), "spec", "suspend")).isFalse();
    }

    @Test
    void shouldKeepAWorkloadPendingWithoutPodsWhenItNeedsMoreThanTheBookingAndMayNotBorrow() {
        bookQuota("team-a", 2, "0");
        create(GpuaasCrd.RAY_CLUSTER, "team-a", DemoWorkloads.rayCluster("team-a", "big", MIG, 3));

        loop.pass();

        GenericKubernetesResource workload = onlyWorkload("team-a");
        assertThat(conditionStatus(workload, "QuotaReserved")).isEqualTo("False");
        assertThat(Nested.list(workload.getAdditionalProperties(), "status", "conditions").toString())
                .contains("insufficient unused quota for " + MIG);
        assertThat(client.pods().inNamespace("team-a").list().getItems()).isEmpty();
        assertThat(Nested.bool(rayCluster("big").getAdditionalProperties(), "spec", "suspend")).isTrue();
        GenericKubernetesResource queue = client.genericKubernetesResources(GpuaasCrd.CLUSTER_QUEUE.context())
                .withName("gpuaas-team-a").get();
        assertThat(Nested.integer(queue.getAdditionalProperties(), "status", "pendingWorkloads")).hasValue(1);
    }

    @Test
    void shouldSuspendThenReadmitWithoutWorkersWhenANonElasticClusterIsScaledToZero() {
        bookQuota("team-a", 2);
        create(GpuaasCrd.RAY_CLUSTER, "team-a", DemoWorkloads.rayCluster("team-a", "train", MIG, 2));
        loop.pass();

        client.genericKubernetesResources(GpuaasCrd.RAY_CLUSTER.context()).inNamespace("team-a").withName("train")
                .edit(c -> {
                    Map<String, Object> group = Nested.map(Nested.list(c.getAdditionalProperties(), "spec", "workerGroupSpecs").getFirst());
                    group.put("replicas", 0);
                    return c;
                });
        loop.pass();

        assertThat(client.pods().inNamespace("team-a").list().getItems()).as("suspended: head and workers gone").isEmpty();
        loop.pass();

        assertThat(conditionStatus(onlyWorkload("team-a"), "Admitted")).isEqualTo("True");
        assertThat(client.pods().inNamespace("team-a").list().getItems()).extracting(p -> p.getMetadata().getLabels().get("ray.io/node-type"))
                .containsExactly("head");
        assertThat(allocator.attributions()).isEmpty();
    }

    @Test
    void shouldFinishTheWorkloadAndDeleteThePodsWhenTheOwnerIsDeleted() {
        bookQuota("team-b", 0);
        create(GpuaasCrd.INFERENCE_SERVICE, "team-b", DemoWorkloads.inferenceService("team-b", "llm", "nvidia.com/gpu", 1));
        loop.pass();
        assertThat(conditionStatus(onlyWorkload("team-b"), "Admitted")).as("borrowed from the cohort").isEqualTo("True");
        assertThat(client.pods().inNamespace("team-b").withLabel("component", "predictor").list().getItems()).hasSize(1);

        client.genericKubernetesResources(GpuaasCrd.INFERENCE_SERVICE.context()).inNamespace("team-b").withName("llm").delete();
        loop.pass();

        assertThat(client.genericKubernetesResources(GpuaasCrd.WORKLOAD.context()).inNamespace("team-b").list().getItems()).isEmpty();
        assertThat(client.pods().inNamespace("team-b").list().getItems()).isEmpty();
        assertThat(allocator.attributions()).isEmpty();
    }

    private void bookQuota(String tenant, int mig1g) {
        bookQuota(tenant, mig1g, null);
    }

    private void bookQuota(String tenant, int mig1g, String borrowingLimit) {
        GenericKubernetesResource queue = new GenericKubernetesResource();
        queue.setApiVersion(GpuaasCrd.CLUSTER_QUEUE.apiVersion());
        queue.setKind("ClusterQueue");
        queue.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName("gpuaas-" + tenant).build());
        queue.setAdditionalProperty("spec", Map.of("cohortName", ClusterSeeder.COHORT,
                "namespaceSelector", Map.of("matchLabels", Map.of(ClusterSeeder.TENANT_LABEL, tenant)),
                "resourceGroups", List.of(
                        group("h200", "nvidia.com/gpu", 0, borrowingLimit),
                        group("h200-mig-1g.18gb", MIG, mig1g, borrowingLimit))));
        client.genericKubernetesResources(GpuaasCrd.CLUSTER_QUEUE.context()).resource(queue).create();
        GenericKubernetesResource local = new GenericKubernetesResource();
        local.setApiVersion(GpuaasCrd.LOCAL_QUEUE.apiVersion());
        local.setKind("LocalQueue");
        local.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName("gpuaas").withNamespace(tenant).build());
        local.setAdditionalProperty("spec", Map.of("clusterQueue", "gpuaas-" + tenant));
        client.genericKubernetesResources(GpuaasCrd.LOCAL_QUEUE.context()).inNamespace(tenant).resource(local).create();
    }

    // lendingLimit 0 keeps a booking for its tenant; borrowingLimit (null = unlimited) caps use of the cohort's spare.
    private static Map<String, Object> group(String flavor, String resource, int nominal, String borrowingLimit) {
        Map<String, Object> quota = new java.util.LinkedHashMap<>(Map.of("name", resource,
                "nominalQuota", Integer.toString(nominal), "lendingLimit", "0"));
        if (borrowingLimit != null) {
            quota.put("borrowingLimit", borrowingLimit);
        }
        return Map.of("coveredResources", List.of(resource), "flavors", List.of(Map.of("name", flavor,
                "resources", List.of(quota))));
    }

    private void create(GpuaasCrd crd, String namespace, GenericKubernetesResource resource) {
        client.genericKubernetesResources(crd.context()).inNamespace(namespace).resource(resource).create();
    }

    private GenericKubernetesResource rayCluster(String name) {
        return client.genericKubernetesResources(GpuaasCrd.RAY_CLUSTER.context()).inNamespace("team-a").withName(name).get();
    }

    private GenericKubernetesResource onlyWorkload(String namespace) {
        List<GenericKubernetesResource> workloads = client.genericKubernetesResources(GpuaasCrd.WORKLOAD.context())
                .inNamespace(namespace).list().getItems();
        assertThat(workloads).hasSize(1);
        return workloads.getFirst();
    }

    private static String conditionStatus(GenericKubernetesResource workload, String type) {
        return Nested.list(workload.getAdditionalProperties(), "status", "conditions").stream()
                .filter(c -> type.equals(Nested.string(c, "type").orElse(""))).map(c -> Nested.string(c, "status").orElse(""))
                .findFirst().orElse("absent");
    }
}
