package io.gpuaas.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.kube.kueue.v1beta2.Workload;
import io.gpuaas.kube.kueue.v1beta2.workloadstatus.admission.PodSetAssignments;
import io.gpuaas.kube.ray.v1.RayCluster;
import io.gpuaas.local.fleet.DeviceAllocator;
import io.gpuaas.local.fleet.FleetLayout;
import io.gpuaas.local.k8s.ClusterSeeder;
import io.gpuaas.local.k8s.DemoWorkloads;
import io.gpuaas.local.k8s.Tenant;
import io.gpuaas.testing.k8s.GpuaasCrd;
import io.gpuaas.testing.k8s.KubernetesApi;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Kueue stand-in admits a Workload only if its ClusterQueue covers every resource the pods request, as Kueue
 * does, unless the stand-in's {@code excludeResourcePrefixes} leaves the resource out. The demo RayCluster's head
 * requests 2 CPU / 8 Gi and no GPU, its workers 4 CPU / 32 Gi and one MIG slice each.
 */
class KueueCoverageIT {

    private static final FleetLayout LAYOUT = FleetLayout.of(16);
    private static KubernetesApi api;
    private static KubernetesClient client;
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

    @AfterEach
    void removeWorkloadsAndQueues() {
        if (loop != null) {
            loop.close();
        }
        for (GpuaasCrd crd : List.of(GpuaasCrd.RAY_CLUSTER, GpuaasCrd.WORKLOAD, GpuaasCrd.LOCAL_QUEUE)) {
            client.genericKubernetesResources(crd.context()).inAnyNamespace().delete();
        }
        client.genericKubernetesResources(GpuaasCrd.CLUSTER_QUEUE.context()).delete();
        client.pods().inAnyNamespace().delete();
    }

    @Test
    void shouldLeaveTheWorkloadPendingWithKueuesConditionWhenItsQueueDoesNotCoverCpu() {
        loop = simulation(List.of());
        TenantQueues.book(client, "team-a", 2, null, false);
        create(DemoWorkloads.rayCluster("team-a", "train", TenantQueues.MIG, 2));

        loop.pass();

        Workload workload = onlyWorkload("team-a");
        assertThat(condition(workload, "QuotaReserved")).satisfies(c -> {
            assertThat(c.getStatus()).isEqualTo("False");
            assertThat(c.getReason()).isEqualTo("Pending");
            assertThat(c.getMessage())
                    .isEqualTo("couldn't assign flavors to pod set head: resource cpu unavailable in ClusterQueue");
        });
        assertThat(workload.getStatus().getAdmission()).isNull();
        assertThat(client.pods().inNamespace("team-a").list().getItems()).isEmpty();
        assertThat(rayCluster("train").getSpec().getSuspend()).isTrue();
    }

    @Test
    void shouldAdmitCpuMemoryAndGpusWhenTheQueueCoversThemAsShipped() {
        loop = simulation(io.gpuaas.local.kueue.KueueStandIn.SHIPPED_EXCLUDED_RESOURCE_PREFIXES);
        TenantQueues.book(client, "team-a", 2, null, true);
        create(DemoWorkloads.rayCluster("team-a", "train", TenantQueues.MIG, 2));

        loop.pass();

        Workload workload = onlyWorkload("team-a");
        assertThat(condition(workload, "Admitted").getStatus()).isEqualTo("True");
        List<PodSetAssignments> assignments =
                workload.getStatus().getAdmission().getPodSetAssignments();
        assertThat(assignments).extracting(PodSetAssignments::getName).containsExactly("head", "gpu-workers");
        assertThat(assignments.getFirst().getFlavors())
                .isEqualTo(Map.of("cpu", ClusterSeeder.NODE_FLAVOR, "memory", ClusterSeeder.NODE_FLAVOR));
        assertThat(assignments.get(1).getFlavors())
                .containsEntry(TenantQueues.MIG, "h200-mig-1g.18gb")
                .containsEntry("cpu", ClusterSeeder.NODE_FLAVOR);
        assertThat(assignments.get(1).getResourceUsage().get("cpu").getStrVal()).isEqualTo("8");
        assertThat(assignments.get(1).getResourceUsage().get("memory").getStrVal())
                .isEqualTo(Long.toString(64L << 30));
        assertThat(assignments.get(1).getResourceUsage().get(TenantQueues.MIG).getStrVal())
                .isEqualTo("2");
        assertThat(client.pods().inNamespace("team-a").list().getItems()).hasSize(3);
    }

    @Test
    void shouldAdmitIntoAGpuOnlyQueueWhenCpuAndMemoryAreExcludedLikeKueuesExcludeResourcePrefixes() {
        loop = simulation(List.of("cpu", "memory"));
        TenantQueues.book(client, "team-a", 2, null, false);
        create(DemoWorkloads.rayCluster("team-a", "train", TenantQueues.MIG, 2));

        loop.pass();

        Workload workload = onlyWorkload("team-a");
        assertThat(condition(workload, "Admitted").getStatus()).isEqualTo("True");
        assertThat(workload.getStatus()
                        .getAdmission()
                        .getPodSetAssignments()
                        .get(1)
                        .getResourceUsage())
                .containsOnlyKeys(TenantQueues.MIG);
    }

    private static SimulationLoop simulation(List<String> excludedResourcePrefixes) {
        return new SimulationLoop(client, new DeviceAllocator(client, LAYOUT), excludedResourcePrefixes);
    }

    private static void create(RayCluster cluster) {
        client.resources(RayCluster.class)
                .inNamespace(cluster.getMetadata().getNamespace())
                .resource(cluster)
                .create();
    }

    private static RayCluster rayCluster(String name) {
        return client.resources(RayCluster.class)
                .inNamespace("team-a")
                .withName(name)
                .get();
    }

    private static Workload onlyWorkload(String namespace) {
        List<Workload> workloads =
                client.resources(Workload.class).inNamespace(namespace).list().getItems();
        assertThat(workloads).hasSize(1);
        return workloads.getFirst();
    }

    private static Condition condition(Workload workload, String type) {
        return workload.getStatus().getConditions().stream()
                .filter(c -> type.equals(c.getType()))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + type + " condition"));
    }
}
