package io.gpuaas.quota.k8s;

import static io.gpuaas.quota.model.Bookings.at;
import static io.gpuaas.quota.model.Bookings.booking;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.kube.kueue.v1beta2.ClusterQueue;
import io.gpuaas.kube.kueue.v1beta2.ClusterQueueSpec;
import io.gpuaas.kube.kueue.v1beta2.LocalQueue;
import io.gpuaas.kube.odh.v1.HardwareProfile;
import io.gpuaas.quota.config.NodeResourceSettings;
import io.gpuaas.quota.model.BorrowQueue;
import io.gpuaas.quota.model.DesiredQuota;
import io.gpuaas.quota.model.FlavorResource;
import io.gpuaas.quota.model.QuotaPlan;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class KueueManifestsTest {

    private static final PoolCatalog POOLS = PoolCatalog.load(Optional.empty());

    private static Map<ObjectRef, HasMetadata> render(boolean borrowing, boolean profiles) {
        DesiredQuota quota = QuotaPlan.at(
                at(1),
                List.of(booking("b1", "team-a", "h200", 3, at(0), at(60))),
                POOLS,
                Map.of("team-a", Set.of("team-a", "team-a-dev")));
        return new KueueManifests(new ManifestSettings("gpuaas-pool", "gpuaas", borrowing, profiles)).render(quota);
    }

    private static ClusterQueue clusterQueue(Map<ObjectRef, HasMetadata> objects) {
        return (ClusterQueue) objects.get(new ObjectRef(Kind.CLUSTER_QUEUE, null, "gpuaas-team-a"));
    }

    @Test
    void shouldRenderTenantClusterQueueInCohortWithReclaimAndOneGroupPerResourceWhenTenantBooks() {
        ClusterQueue cq = clusterQueue(render(true, false));

        assertThat(cq.getApiVersion()).isEqualTo("kueue.x-k8s.io/v1beta2");
        assertThat(cq.getMetadata().getLabels())
                .containsEntry("app.kubernetes.io/managed-by", "gpuaas")
                .containsEntry("gpuaas.io/tenant", "team-a");
        ClusterQueueSpec spec = cq.getSpec();
        assertThat(spec.getCohortName()).isEqualTo("gpuaas-pool");
        assertThat(spec.getStopPolicy()).isEqualTo("None");
        assertThat(spec.getNamespaceSelector().getMatchLabels()).isEqualTo(Map.of("gpuaas.io/tenant", "team-a"));
        assertThat(spec.getPreemption().getReclaimWithinCohort()).isEqualTo("Any");
        assertThat(spec.getPreemption().getBorrowWithinCohort().getPolicy()).isEqualTo("Never");
        assertThat(spec.getResourceGroups()).hasSize(5).first().satisfies(g -> {
            assertThat(g.getCoveredResources()).containsExactly("nvidia.com/gpu");
            assertThat(g.getFlavors()).singleElement().satisfies(f -> {
                assertThat(f.getName()).isEqualTo("h200");
                assertThat(f.getResources()).singleElement().satisfies(r -> {
                    assertThat(r.getName()).isEqualTo("nvidia.com/gpu");
                    assertThat(r.getNominalQuota()).isEqualTo(new IntOrString("3"));
                    assertThat(r.getBorrowingLimit()).isNull();
                });
            });
        });
        assertThat(NominalQuota.of(cq))
                .containsEntry(
                        new FlavorResource("h200-mig-2g.35gb", "nvidia.com/mig-2g.35gb"), java.math.BigDecimal.ZERO);
    }

    @Test
    void shouldForbidBorrowingWhenBorrowingIsDisabled() {
        ClusterQueue cq = clusterQueue(render(false, false));

        assertThat(cq.getSpec().getResourceGroups())
                .flatMap(g -> g.getFlavors())
                .flatMap(f -> f.getResources())
                .allSatisfy(r -> assertThat(r.getBorrowingLimit()).isEqualTo(new IntOrString("0")));
    }

    @Test
    void shouldRenderLocalQueuesAndProfilesInEveryTenantNamespaceWhenProfilesAreEnabled() {
        Map<ObjectRef, HasMetadata> objects = render(true, true);

        assertThat(objects.keySet())
                .contains(
                        new ObjectRef(Kind.LOCAL_QUEUE, "team-a", "gpuaas"),
                        new ObjectRef(Kind.LOCAL_QUEUE, "team-a-dev", "gpuaas"),
                        new ObjectRef(Kind.HARDWARE_PROFILE, "team-a-dev", "gpuaas-h200"),
                        new ObjectRef(Kind.COHORT, null, "gpuaas-pool"));
        LocalQueue queue = (LocalQueue) objects.get(new ObjectRef(Kind.LOCAL_QUEUE, "team-a-dev", "gpuaas"));
        assertThat(queue.getSpec().getClusterQueue()).isEqualTo("gpuaas-team-a");
        HardwareProfile profile =
                (HardwareProfile) objects.get(new ObjectRef(Kind.HARDWARE_PROFILE, "team-a", "gpuaas-h200"));
        assertThat(profile.getApiVersion()).isEqualTo("infrastructure.opendatahub.io/v1");
        assertThat(profile.getSpec().getScheduling().getType()).isEqualTo("Queue");
        assertThat(profile.getSpec().getScheduling().getKueue().getLocalQueueName())
                .isEqualTo("gpuaas");
        assertThat(profile.getSpec().getIdentifiers()).singleElement().satisfies(id -> {
            assertThat(id.getIdentifier()).isEqualTo("nvidia.com/gpu");
            assertThat(id.getMaxCount()).isEqualTo(new IntOrString(3));
        });
        assertThat(render(true, false).keySet()).noneMatch(r -> r.kind() == Kind.HARDWARE_PROFILE);
    }

    @Test
    void shouldCoverCpuAndMemoryInEveryTenantQueueWithoutBorrowingWhenNodeResourcesAreOn() {
        Map<ObjectRef, HasMetadata> objects = render(true, false);

        assertThat(clusterQueue(objects).getSpec().getResourceGroups()).last().satisfies(g -> {
            assertThat(g.getCoveredResources()).containsExactly("cpu", "memory");
            assertThat(g.getFlavors()).singleElement().satisfies(f -> {
                assertThat(f.getName()).isEqualTo("gpuaas-any-node");
                assertThat(f.getResources())
                        .extracting(r -> r.getName(), r -> r.getNominalQuota(), r -> r.getBorrowingLimit())
                        .containsExactly(
                                tuple("cpu", new IntOrString("100000"), new IntOrString("0")),
                                tuple("memory", new IntOrString("1Pi"), new IntOrString("0")));
            });
        });
        // The cohort holds GPU cells only: cpu/memory are never shared, so nothing borrows them.
        assertThat(NominalQuota.of(objects.get(new ObjectRef(Kind.COHORT, null, "gpuaas-pool")))
                        .keySet())
                .allSatisfy(cell -> assertThat(cell.resource()).startsWith("nvidia.com/"));
    }

    @Test
    void shouldDrainCpuAndMemoryToZeroWithTheGpuCellsWhenTheQueueDrains() {
        KueueManifests manifests = new KueueManifests(new ManifestSettings("gpuaas-pool", "gpuaas", true, false));
        TreeMap<FlavorResource, Long> cells = new TreeMap<>(Map.of(new FlavorResource("h200", "nvidia.com/gpu"), 8L));

        ClusterQueue draining = manifests.drainingClusterQueue("team-a", cells);

        assertThat(draining.getSpec().getResourceGroups())
                .extracting(g -> g.getCoveredResources())
                .containsExactly(List.of("nvidia.com/gpu"), List.of("cpu", "memory"));
        assertThat(NominalQuota.of(draining).values())
                .allSatisfy(q -> assertThat(q).isZero());
    }

    @Test
    void shouldCoverOnlyGpuCellsWhenNodeResourceFlavorIsBlank() {
        KueueManifests manifests = new KueueManifests(
                new ManifestSettings("gpuaas-pool", "gpuaas", true, false, new NodeResourceSettings(" ", "1", "1Gi")));
        TreeMap<FlavorResource, Long> cells = new TreeMap<>(Map.of(new FlavorResource("h200", "nvidia.com/gpu"), 8L));

        ClusterQueue queue = manifests.clusterQueue("team-a", cells, KueueManifests.RUNNING);

        assertThat(queue.getSpec().getResourceGroups())
                .extracting(g -> g.getCoveredResources())
                .containsExactly(List.of("nvidia.com/gpu"));
    }

    @Test
    void shouldMergeFlavorsWhoseResourcesOverlapIntoOneGroupWithZeroWhereAFlavorDoesNotOfferAResource() {
        TreeMap<FlavorResource, Long> cells = new TreeMap<>(Map.of(
                new FlavorResource("h200", "nvidia.com/gpu"), 8L,
                new FlavorResource("h200-flex", "nvidia.com/gpu"), 1L,
                new FlavorResource("h200-flex", "nvidia.com/mig-3g.71gb"), 2L,
                new FlavorResource("h200-mig-3g.71gb", "nvidia.com/mig-3g.71gb"), 4L,
                new FlavorResource("other", "example.com/nic"), 1L));

        var groups = ResourceGroups.render(cells, false);

        assertThat(groups).hasSize(2);
        assertThat(groups.getFirst().getCoveredResources()).containsExactly("nvidia.com/gpu", "nvidia.com/mig-3g.71gb");
        assertThat(groups.getFirst().getFlavors())
                .extracting(f -> f.getName(), f -> f.getResources().stream()
                        .map(r -> r.getName() + "=" + r.getNominalQuota().getStrVal())
                        .toList())
                .containsExactly(
                        tuple("h200", List.of("nvidia.com/gpu=8", "nvidia.com/mig-3g.71gb=0")),
                        tuple("h200-flex", List.of("nvidia.com/gpu=1", "nvidia.com/mig-3g.71gb=2")),
                        tuple("h200-mig-3g.71gb", List.of("nvidia.com/gpu=0", "nvidia.com/mig-3g.71gb=4")));
        assertThat(groups.get(1).getCoveredResources()).containsExactly("example.com/nic");
    }

    @Test
    void shouldRenderABorrowOnlyQueueWithNoNominalQuotaAndItsLocalQueuesAndThePriorityClassWhenATenantIsOverBudget() {
        DesiredQuota quota = QuotaPlan.at(at(1), List.of(), POOLS, Map.of())
                .withBorrowers(
                        new java.util.TreeSet<>(Set.of(new FlavorResource("h200", "nvidia.com/gpu"))),
                        new TreeMap<>(Map.of(
                                "team-b",
                                new BorrowQueue(
                                        "team-b",
                                        "gpuaas-team-b.borrowed",
                                        new java.util.TreeSet<>(Set.of("team-b", "team-b-dev"))))));

        Map<ObjectRef, HasMetadata> objects =
                new KueueManifests(new ManifestSettings("gpuaas-pool", "gpuaas", true, false)).render(quota);

        ClusterQueue cq = (ClusterQueue) objects.get(new ObjectRef(Kind.CLUSTER_QUEUE, null, "gpuaas-team-b.borrowed"));
        assertThat(cq.getMetadata().getLabels()).containsEntry("gpuaas.io/tenant", "team-b");
        assertThat(cq.getSpec().getCohortName()).isEqualTo("gpuaas-pool");
        assertThat(cq.getSpec().getNamespaceSelector().getMatchLabels())
                .isEqualTo(Map.of("gpuaas.io/tenant", "team-b"));
        assertThat(cq.getSpec().getResourceGroups().getFirst().getFlavors())
                .singleElement()
                .satisfies(f -> {
                    assertThat(f.getName()).isEqualTo("h200");
                    assertThat(f.getResources()).singleElement().satisfies(r -> {
                        assertThat(r.getNominalQuota()).isEqualTo(new IntOrString("0"));
                        assertThat(r.getBorrowingLimit()).as("it may borrow").isNull();
                    });
                });
        assertThat(cq.getSpec().getResourceGroups())
                .as("the pool's cells only, then cpu/memory")
                .hasSize(2);
        assertThat(objects.get(new ObjectRef(Kind.LOCAL_QUEUE, "team-b-dev", "gpuaas-borrowed")))
                .isInstanceOfSatisfying(
                        LocalQueue.class,
                        lq -> assertThat(lq.getSpec().getClusterQueue()).isEqualTo("gpuaas-team-b.borrowed"));
        assertThat(objects.get(new ObjectRef(Kind.WORKLOAD_PRIORITY_CLASS, null, "gpuaas-borrowed")))
                .isInstanceOfSatisfying(
                        io.gpuaas.kube.kueue.v1beta2.WorkloadPriorityClass.class,
                        wpc -> assertThat(wpc.getValue()).isNegative());
        assertThat(objects.keySet().stream().filter(r -> r.kind() == Kind.CLUSTER_QUEUE))
                .as("no quota for team-b anywhere else")
                .containsExactly(new ObjectRef(Kind.CLUSTER_QUEUE, null, "gpuaas-team-b.borrowed"));
    }
}
