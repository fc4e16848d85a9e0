package io.gpuaas.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.events.Labels;
import io.gpuaas.kube.kueue.v1beta2.Cohort;
import io.gpuaas.kube.kueue.v1beta2.Workload;
import io.gpuaas.kube.kueue.v1beta2.WorkloadPriorityClass;
import io.gpuaas.kube.ray.v1.RayCluster;
import io.gpuaas.local.fleet.DeviceAllocator;
import io.gpuaas.local.fleet.FleetLayout;
import io.gpuaas.local.k8s.ClusterSeeder;
import io.gpuaas.local.k8s.DemoWorkloads;
import io.gpuaas.local.k8s.Tenant;
import io.gpuaas.local.kueue.KueueStandIn;
import io.gpuaas.local.model.OwnerReader;
import io.gpuaas.testing.k8s.GpuaasCrd;
import io.gpuaas.testing.k8s.KubernetesApi;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An over-budget tenant's work runs only on borrowed capacity, at a lower priority, and a booked tenant takes its
 * GPUs back, with Kueue's preemption rules on the Kueue stand-in. The queues have quota-projector's shape: team-a
 * has booked all 8 whole H200s (its ClusterQueue's nominal quota, the cohort keeps none of them), team-b is over
 * budget and has only {@code gpuaas-team-b.borrowed}, nominal 0, reached through LocalQueue {@code gpuaas-borrowed}.
 */
class BorrowedPreemptionIT {

    private static final FleetLayout LAYOUT = FleetLayout.of(16);
    private static final String GPU = "nvidia.com/gpu";
    private static final String BORROW_QUEUE = "gpuaas-team-b.borrowed";
    private static final String BORROW_LOCAL_QUEUE = "gpuaas-borrowed";
    private static final String PRIORITY_CLASS = "gpuaas-borrowed";
    private static KubernetesApi api;
    private static KubernetesClient client;
    private SimulationLoop loop;

    @BeforeAll
    static void seed() {
        api = KubernetesApi.start(0);
        client = api.client();
        new ClusterSeeder(client).seed(LAYOUT, LAYOUT.pools(), Tenant.demo(2));
        Cohort cohort =
                client.resources(Cohort.class).withName(ClusterSeeder.COHORT).get();
        cohort.getSpec().getResourceGroups().forEach(group -> group.getFlavors().stream()
                .filter(f -> FleetLayout.FULL_POOL.equals(f.getName()))
                .forEach(f -> f.getResources().stream()
                        .filter(r -> GPU.equals(r.getName()))
                        .forEach(r -> r.setNominalQuota(new IntOrString("0")))));
        client.resources(Cohort.class).resource(cohort).update();
    }

    @AfterAll
    static void stop() {
        api.close();
    }

    @BeforeEach
    void queues() {
        WorkloadPriorityClass borrowed = new WorkloadPriorityClass();
        borrowed.setMetadata(new ObjectMetaBuilder().withName(PRIORITY_CLASS).build());
        borrowed.setValue(-100);
        client.resources(WorkloadPriorityClass.class).resource(borrowed).createOr(r -> r.update());
        clusterQueue("gpuaas-team-a", "team-a", 8);
        clusterQueue(BORROW_QUEUE, "team-b", 0);
        localQueue("team-a", "gpuaas", "gpuaas-team-a");
        localQueue("team-b", BORROW_LOCAL_QUEUE, BORROW_QUEUE);
        loop = new SimulationLoop(
                client, new DeviceAllocator(client, LAYOUT), KueueStandIn.SHIPPED_EXCLUDED_RESOURCE_PREFIXES);
    }

    @AfterEach
    void removeWorkloadsAndQueues() {
        loop.close();
        for (GpuaasCrd crd : List.of(GpuaasCrd.RAY_CLUSTER, GpuaasCrd.WORKLOAD, GpuaasCrd.LOCAL_QUEUE)) {
            client.genericKubernetesResources(crd.context()).inAnyNamespace().delete();
        }
        client.genericKubernetesResources(GpuaasCrd.CLUSTER_QUEUE.context()).delete();
        client.genericKubernetesResources(GpuaasCrd.WORKLOAD_PRIORITY_CLASS.context())
                .delete();
        client.pods().inAnyNamespace().delete();
    }

    @Test
    void shouldAdmitTheOverBudgetWorkloadByBorrowingThenPreemptItWhenTheBookedTenantNeedsItsGpus() {
        create(borrowed("team-b", "sweep", 4));
        loop.pass();

        Workload sweep = onlyWorkload("team-b");
        assertThat(sweep.getSpec().getPriority()).isEqualTo(-100);
        assertThat(sweep.getSpec().getPriorityClassRef().getName()).isEqualTo(PRIORITY_CLASS);
        assertThat(condition(sweep, "Admitted").getStatus()).isEqualTo("True");
        assertThat(sweep.getStatus().getAdmission().getClusterQueue())
                .as("admitted in a queue with no nominal quota: every GPU of it is borrowed")
                .isEqualTo(BORROW_QUEUE);
        assertThat(rayCluster("team-b", "sweep").getSpec().getSuspend()).isNotEqualTo(Boolean.TRUE);

        create(DemoWorkloads.rayCluster("team-a", "train", GPU, 6));
        loop.pass();

        Workload train = onlyWorkload("team-a");
        assertThat(condition(train, "Admitted").getStatus()).isEqualTo("True");
        assertThat(train.getStatus().getAdmission().getClusterQueue()).isEqualTo("gpuaas-team-a");
        String message = "Preempted to accommodate a workload (UID: "
                + train.getMetadata().getUid() + ") due to reclamation within the cohort";
        sweep = onlyWorkload("team-b");
        assertThat(condition(sweep, "Evicted")).satisfies(c -> {
            assertThat(c.getStatus()).isEqualTo("True");
            assertThat(c.getReason()).isEqualTo("Preempted");
            assertThat(c.getMessage()).isEqualTo(message);
        });
        assertThat(condition(sweep, "Preempted")).satisfies(c -> {
            assertThat(c.getStatus()).isEqualTo("True");
            assertThat(c.getReason()).isEqualTo("InCohortReclamation");
            assertThat(c.getMessage()).isEqualTo(message);
        });
        assertThat(condition(sweep, "QuotaReserved")).satisfies(c -> {
            assertThat(c.getStatus()).isEqualTo("False");
            assertThat(c.getReason()).isEqualTo("Pending");
        });
        assertThat(condition(sweep, "Admitted").getReason()).isEqualTo("NoReservation");
        assertThat(sweep.getStatus().getAdmission()).isNull();
        assertThat(rayCluster("team-b", "sweep").getSpec().getSuspend()).isTrue();

        loop.pass();

        assertThat(condition(onlyWorkload("team-b"), "QuotaReserved").getStatus())
                .as("requeued, it waits: 2 GPUs are idle, it asks for 4")
                .isEqualTo("False");
        assertThat(condition(onlyWorkload("team-b"), "Evicted").getStatus()).isEqualTo("True");
        assertThat(condition(onlyWorkload("team-a"), "Admitted").getStatus()).isEqualTo("True");
    }

    @Test
    void shouldNeverTakeABookedTenantsGpusForTheOverBudgetWorkload() {
        create(DemoWorkloads.rayCluster("team-a", "train", GPU, 8));
        loop.pass();
        create(borrowed("team-b", "sweep", 1));
        loop.pass();
        loop.pass();

        assertThat(condition(onlyWorkload("team-a"), "Admitted").getStatus()).isEqualTo("True");
        Workload sweep = onlyWorkload("team-b");
        assertThat(condition(sweep, "QuotaReserved")).satisfies(c -> {
            assertThat(c.getStatus()).isEqualTo("False");
            assertThat(c.getMessage()).contains("insufficient unused quota for " + GPU);
        });
        assertThat(sweep.getStatus().getConditions()).noneMatch(c -> "Evicted".equals(c.getType()));
    }

    @Test
    void shouldReadmitAPreemptedWorkloadWhenTheCapacityIsIdleAgainAndKeepItsPastEviction() {
        create(borrowed("team-b", "sweep", 4));
        loop.pass();
        create(DemoWorkloads.rayCluster("team-a", "train", GPU, 6));
        loop.pass();
        client.resources(RayCluster.class)
                .inNamespace("team-a")
                .withName("train")
                .delete();
        loop.pass();
        loop.pass();

        Workload sweep = onlyWorkload("team-b");
        assertThat(condition(sweep, "Admitted").getStatus()).isEqualTo("True");
        assertThat(condition(sweep, "Evicted")).satisfies(c -> {
            assertThat(c.getStatus()).isEqualTo("False");
            assertThat(c.getReason()).isEqualTo("QuotaReserved");
            assertThat(c.getMessage()).startsWith("Previously: Preempted to accommodate a workload");
        });
        assertThat(condition(sweep, "Preempted").getStatus()).isEqualTo("False");
    }

    @Test
    void shouldCreateNoWorkloadWhenTheNamedPriorityClassDoesNotExist() {
        RayCluster cluster = borrowed("team-b", "sweep", 1);
        cluster.getMetadata().getLabels().put(OwnerReader.PRIORITY_CLASS_LABEL, "no-such-class");
        create(cluster);
        loop.pass();

        assertThat(client.resources(Workload.class).inNamespace("team-b").list().getItems())
                .isEmpty();
        assertThat(rayCluster("team-b", "sweep").getSpec().getSuspend()).isTrue();
    }

    private static RayCluster borrowed(String namespace, String name, int gpus) {
        RayCluster cluster = DemoWorkloads.rayCluster(namespace, name, GPU, gpus);
        Map<String, String> labels = new LinkedHashMap<>(cluster.getMetadata().getLabels());
        labels.put(OwnerReader.QUEUE_LABEL, BORROW_LOCAL_QUEUE);
        labels.put(OwnerReader.PRIORITY_CLASS_LABEL, PRIORITY_CLASS);
        cluster.getMetadata().setLabels(labels);
        return cluster;
    }

    // Shaped as quota-projector renders a tenant queue: every GPU cell may borrow, cpu/memory a ceiling never lent.
    private static void clusterQueue(String name, String tenant, int gpus) {
        Map<String, Object> gpuGroup = Map.of(
                "coveredResources",
                List.of(GPU),
                "flavors",
                List.of(Map.of(
                        "name",
                        FleetLayout.FULL_POOL,
                        "resources",
                        List.of(Map.of("name", GPU, "nominalQuota", Integer.toString(gpus))))));
        Map<String, Object> nodeGroup = Map.of(
                "coveredResources",
                List.of("cpu", "memory"),
                "flavors",
                List.of(Map.of(
                        "name",
                        ClusterSeeder.NODE_FLAVOR,
                        "resources",
                        List.of(
                                Map.of("name", "cpu", "nominalQuota", "100000", "borrowingLimit", "0"),
                                Map.of("name", "memory", "nominalQuota", "1Pi", "borrowingLimit", "0")))));
        GenericKubernetesResource queue = new GenericKubernetesResource();
        queue.setApiVersion(GpuaasCrd.CLUSTER_QUEUE.apiVersion());
        queue.setKind("ClusterQueue");
        queue.setMetadata(new ObjectMetaBuilder().withName(name).build());
        queue.setAdditionalProperty(
                "spec",
                Map.of(
                        "cohortName",
                        ClusterSeeder.COHORT,
                        "namespaceSelector",
                        Map.of("matchLabels", Map.of(Labels.TENANT, tenant)),
                        "preemption",
                        Map.of(
                                "reclaimWithinCohort",
                                "Any",
                                "withinClusterQueue",
                                "LowerPriority",
                                "borrowWithinCohort",
                                Map.of("policy", "Never")),
                        "resourceGroups",
                        List.of(gpuGroup, nodeGroup)));
        client.genericKubernetesResources(GpuaasCrd.CLUSTER_QUEUE.context())
                .resource(queue)
                .create();
    }

    private static void localQueue(String namespace, String name, String clusterQueue) {
        GenericKubernetesResource local = new GenericKubernetesResource();
        local.setApiVersion(GpuaasCrd.LOCAL_QUEUE.apiVersion());
        local.setKind("LocalQueue");
        local.setMetadata(
                new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
        local.setAdditionalProperty("spec", Map.of("clusterQueue", clusterQueue));
        client.genericKubernetesResources(GpuaasCrd.LOCAL_QUEUE.context())
                .inNamespace(namespace)
                .resource(local)
                .create();
    }

    private static void create(RayCluster cluster) {
        client.resources(RayCluster.class)
                .inNamespace(cluster.getMetadata().getNamespace())
                .resource(cluster)
                .create();
    }

    private static RayCluster rayCluster(String namespace, String name) {
        return client.resources(RayCluster.class)
                .inNamespace(namespace)
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
