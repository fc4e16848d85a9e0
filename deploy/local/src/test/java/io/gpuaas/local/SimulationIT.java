package io.gpuaas.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.kube.kserve.v1beta1.InferenceService;
import io.gpuaas.kube.kueue.v1beta2.ClusterQueue;
import io.gpuaas.kube.kueue.v1beta2.Workload;
import io.gpuaas.kube.ray.v1.RayCluster;
import io.gpuaas.local.fleet.DeviceAllocator;
import io.gpuaas.local.fleet.FleetLayout;
import io.gpuaas.local.k8s.ClusterSeeder;
import io.gpuaas.local.k8s.DemoWorkloads;
import io.gpuaas.local.k8s.Tenant;
import io.gpuaas.testing.k8s.GpuaasCrd;
import io.gpuaas.testing.k8s.KubernetesApi;
import java.util.List;
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
        for (GpuaasCrd crd : List.of(
                GpuaasCrd.RAY_CLUSTER, GpuaasCrd.INFERENCE_SERVICE, GpuaasCrd.WORKLOAD, GpuaasCrd.LOCAL_QUEUE)) {
            client.genericKubernetesResources(crd.context()).inAnyNamespace().delete();
        }
        client.genericKubernetesResources(GpuaasCrd.CLUSTER_QUEUE.context()).delete();
        client.pods().inAnyNamespace().delete();
    }

    @Test
    void shouldAdmitRunAndAttributeARayClusterWhenItsTenantHasQuota() {
        bookQuota("team-a", 2);
        create(DemoWorkloads.rayCluster("team-a", "train", MIG, 2));

        loop.pass();

        Workload workload = onlyWorkload("team-a");
        assertThat(conditionStatus(workload, "Admitted")).isEqualTo("True");
        assertThat(workload.getStatus().getAdmission().getClusterQueue()).isEqualTo("gpuaas-team-a");
        assertThat(workload.getMetadata().getOwnerReferences().getFirst().getName())
                .isEqualTo("train");
        List<Pod> workers = client.pods()
                .inNamespace("team-a")
                .withLabel("ray.io/node-type", "worker")
                .list()
                .getItems();
        assertThat(workers).hasSize(2).allSatisfy(p -> {
            assertThat(p.getMetadata().getLabels())
                    .containsEntry("ray.io/cluster", "train")
                    .containsEntry("ray.io/group", "gpu-workers");
            assertThat(p.getStatus().getPhase()).isEqualTo("Running");
            assertThat(p.getSpec().getNodeName()).isEqualTo("gpu-node-2");
        });
        assertThat(allocator.attributions()).hasSize(2).allSatisfy((device, pod) -> assertThat(pod.namespace())
                .isEqualTo("team-a"));
        assertThat(rayCluster("train").getSpec().getSuspend()).isNotEqualTo(Boolean.TRUE);
    }

    @Test
    void shouldKeepAWorkloadPendingWithoutPodsWhenItNeedsMoreThanTheBookingAndMayNotBorrow() {
        bookQuota("team-a", 2, "0");
        create(DemoWorkloads.rayCluster("team-a", "big", MIG, 3));

        loop.pass();

        Workload workload = onlyWorkload("team-a");
        assertThat(conditionStatus(workload, "QuotaReserved")).isEqualTo("False");
        assertThat(workload.getStatus().getConditions())
                .extracting(Condition::getMessage)
                .anySatisfy(message -> assertThat(message).contains("insufficient unused quota for " + MIG));
        assertThat(client.pods().inNamespace("team-a").list().getItems()).isEmpty();
        assertThat(rayCluster("big").getSpec().getSuspend()).isTrue();
        ClusterQueue queue =
                client.resources(ClusterQueue.class).withName("gpuaas-team-a").get();
        assertThat(queue.getStatus().getPendingWorkloads()).isEqualTo(1);
    }

    @Test
    void shouldSuspendThenReadmitWithoutWorkersWhenANonElasticClusterIsScaledToZero() {
        bookQuota("team-a", 2);
        create(DemoWorkloads.rayCluster("team-a", "train", MIG, 2));
        loop.pass();

        client.resources(RayCluster.class)
                .inNamespace("team-a")
                .withName("train")
                .edit(c -> {
                    c.getSpec().getWorkerGroupSpecs().getFirst().setReplicas(0);
                    return c;
                });
        loop.pass();

        assertThat(client.pods().inNamespace("team-a").list().getItems())
                .as("suspended: head and workers gone")
                .isEmpty();
        loop.pass();

        assertThat(conditionStatus(onlyWorkload("team-a"), "Admitted")).isEqualTo("True");
        assertThat(client.pods().inNamespace("team-a").list().getItems())
                .extracting(p -> p.getMetadata().getLabels().get("ray.io/node-type"))
                .containsExactly("head");
        assertThat(allocator.attributions()).isEmpty();
    }

    @Test
    void shouldFinishTheWorkloadAndDeleteThePodsWhenTheOwnerIsDeleted() {
        bookQuota("team-b", 0);
        create(DemoWorkloads.inferenceService("team-b", "llm", "nvidia.com/gpu", 1));
        loop.pass();
        assertThat(conditionStatus(onlyWorkload("team-b"), "Admitted"))
                .as("borrowed from the cohort")
                .isEqualTo("True");
        assertThat(client.pods()
                        .inNamespace("team-b")
                        .withLabel("component", "predictor")
                        .list()
                        .getItems())
                .hasSize(1);

        client.resources(InferenceService.class)
                .inNamespace("team-b")
                .withName("llm")
                .delete();
        loop.pass();

        assertThat(client.resources(Workload.class).inNamespace("team-b").list().getItems())
                .isEmpty();
        assertThat(client.pods().inNamespace("team-b").list().getItems()).isEmpty();
        assertThat(allocator.attributions()).isEmpty();
    }

    private void bookQuota(String tenant, int mig1g) {
        bookQuota(tenant, mig1g, null);
    }

    private void bookQuota(String tenant, int mig1g, String borrowingLimit) {
        TenantQueues.book(client, tenant, mig1g, borrowingLimit, true);
    }

    private void create(RayCluster cluster) {
        client.resources(RayCluster.class)
                .inNamespace(cluster.getMetadata().getNamespace())
                .resource(cluster)
                .create();
    }

    private void create(InferenceService service) {
        client.resources(InferenceService.class)
                .inNamespace(service.getMetadata().getNamespace())
                .resource(service)
                .create();
    }

    private RayCluster rayCluster(String name) {
        return client.resources(RayCluster.class)
                .inNamespace("team-a")
                .withName(name)
                .get();
    }

    private Workload onlyWorkload(String namespace) {
        List<Workload> workloads =
                client.resources(Workload.class).inNamespace(namespace).list().getItems();
        assertThat(workloads).hasSize(1);
        return workloads.getFirst();
    }

    private static String conditionStatus(Workload workload, String type) {
        return workload.getStatus() == null || workload.getStatus().getConditions() == null
                ? "absent"
                : workload.getStatus().getConditions().stream()
                        .filter(c -> type.equals(c.getType()))
                        .map(Condition::getStatus)
                        .findFirst()
                        .orElse("absent");
    }
}
