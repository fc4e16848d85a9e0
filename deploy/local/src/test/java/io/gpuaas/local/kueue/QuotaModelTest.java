package io.gpuaas.local.kueue;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.local.model.PodSetDemand;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class QuotaModelTest {

    private static final String MIG = "nvidia.com/mig-1g.18gb";
    private static final String FLAVOR = "h200-mig-1g.18gb";

    private static QueueQuota tenant(String name, long nominal, Long lendingLimit) {
        return new QueueQuota(
                name,
                Optional.of("gpuaas-pool"),
                List.of(new FlavorQuota(FLAVOR, MIG, nominal, null, lendingLimit)),
                false);
    }

    private static List<PodSetDemand> workers(int count) {
        return List.of(new PodSetDemand("head", 1, Map.of()), new PodSetDemand("workers", count, Map.of(MIG, 1L)));
    }

    private static QuotaModel model(long cohortQuota, QueueQuota... queues) {
        Map<String, QueueQuota> byName = new java.util.LinkedHashMap<>();
        for (QueueQuota queue : queues) {
            byName.put(queue.name(), queue);
        }
        return new QuotaModel(
                byName, Map.of("gpuaas-pool", List.of(new FlavorQuota(FLAVOR, MIG, cohortQuota, null, null))));
    }

    @Test
    void shouldAdmitWithFlavorAndUsagePerPodSetWhenTheBookingCoversTheRequest() {
        QuotaModel model = model(0, tenant("gpuaas-team-a", 2, 0L));

        Admission admission = model.tryAdmit("gpuaas-team-a", workers(2));

        assertThat(admission).isInstanceOfSatisfying(Admission.Admitted.class, admitted -> {
            assertThat(admitted.clusterQueue()).isEqualTo("gpuaas-team-a");
            assertThat(admitted.podSets().get(1).flavors()).containsEntry(MIG, FLAVOR);
            assertThat(admitted.podSets().get(1).resourceUsage()).containsEntry(MIG, 2L);
            assertThat(admitted.podSets().get(0).resourceUsage()).isEmpty();
        });
        assertThat(model.used("gpuaas-team-a", FLAVOR, MIG)).isEqualTo(2);
    }

    @Test
    void shouldRefuseWithTheMissingUnitsWhenTheRequestExceedsQuotaAndNothingCanBeBorrowed() {
        QuotaModel model = model(0, tenant("gpuaas-team-a", 2, 0L));

        Admission admission = model.tryAdmit("gpuaas-team-a", workers(3));

        assertThat(admission).isInstanceOfSatisfying(Admission.Pending.class, pending -> {
            assertThat(pending.reason()).isEqualTo("Pending");
            assertThat(pending.message()).contains("insufficient unused quota for " + MIG, "1 more needed");
        });
        assertThat(model.used("gpuaas-team-a", FLAVOR, MIG)).isZero();
    }

    @Test
    void shouldRefuseTheSecondWorkloadWhenTheFirstAlreadyUsesTheQuota() {
        QuotaModel model = model(0, tenant("gpuaas-team-a", 2, 0L));
        model.charge(
                "gpuaas-team-a",
                List.of(new Admission.PodSetAssignment("workers", 2, Map.of(MIG, FLAVOR), Map.of(MIG, 2L))));

        assertThat(model.tryAdmit("gpuaas-team-a", workers(1))).isInstanceOf(Admission.Pending.class);
    }

    @Test
    void shouldBorrowTheCohortsUnreservedCapacityWhenTheTenantsOwnQuotaIsUsedUp() {
        QuotaModel model = model(3, tenant("gpuaas-team-a", 2, 0L));

        assertThat(model.tryAdmit("gpuaas-team-a", workers(5))).isInstanceOf(Admission.Admitted.class);
        assertThat(model.tryAdmit("gpuaas-team-a", workers(1))).isInstanceOf(Admission.Pending.class);
    }

    @Test
    void shouldNeverLendAReservationWhenTheOwnerKeepsItWithALendingLimitOfZero() {
        QuotaModel model = model(0, tenant("gpuaas-team-a", 2, 0L), tenant("gpuaas-team-b", 0, 0L));

        assertThat(model.tryAdmit("gpuaas-team-b", workers(1))).isInstanceOf(Admission.Pending.class);
        assertThat(model.tryAdmit("gpuaas-team-a", workers(2))).isInstanceOf(Admission.Admitted.class);
    }

    @Test
    void shouldLendUnusedNominalQuotaWhenNoLendingLimitIsSet() {
        QuotaModel model = model(0, tenant("gpuaas-team-a", 2, null), tenant("gpuaas-team-b", 0, null));

        assertThat(model.tryAdmit("gpuaas-team-b", workers(2))).isInstanceOf(Admission.Admitted.class);
        assertThat(model.tryAdmit("gpuaas-team-a", workers(1))).isInstanceOf(Admission.Pending.class);
    }

    @Test
    void shouldExplainWhenTheQueueIsMissingStoppedOrLacksTheResource() {
        QueueQuota stopped = new QueueQuota(
                "gpuaas-team-c",
                Optional.of("gpuaas-pool"),
                List.of(new FlavorQuota(FLAVOR, MIG, 4, null, null)),
                true);
        QueueQuota wholeGpusOnly = new QueueQuota(
                "gpuaas-team-d",
                Optional.empty(),
                List.of(new FlavorQuota("h200", "nvidia.com/gpu", 4, null, null)),
                false);
        QuotaModel model = model(0, stopped, wholeGpusOnly);

        assertThat(model.tryAdmit("gpuaas-team-x", workers(1)))
                .isEqualTo(new Admission.Pending("Inadmissible", "ClusterQueue gpuaas-team-x doesn't exist"));
        assertThat(model.tryAdmit("gpuaas-team-c", workers(1)))
                .isEqualTo(new Admission.Pending("Inadmissible", "ClusterQueue gpuaas-team-c is inactive"));
        // As Kueue's scheduler writes it: reason Pending, the pod set, the resource, no queue name.
        assertThat(model.tryAdmit("gpuaas-team-d", workers(1)))
                .isEqualTo(new Admission.Pending(
                        "Pending",
                        "couldn't assign flavors to pod set workers: resource " + MIG
                                + " unavailable in ClusterQueue"));
    }

    @Test
    void shouldNameTheFirstUncoveredResourceInNameOrderWhenCpuAndMemoryAreNotCovered() {
        QueueQuota gpusOnly = new QueueQuota(
                "gpuaas-team-e", Optional.empty(), List.of(new FlavorQuota(FLAVOR, MIG, 4, null, null)), false);
        QuotaModel model = model(0, gpusOnly);
        List<PodSetDemand> head = List.of(new PodSetDemand("head", 1, Map.of("memory", 8L << 30, "cpu", 2000L)));

        assertThat(model.tryAdmit("gpuaas-team-e", head))
                .isEqualTo(new Admission.Pending(
                        "Pending",
                        "couldn't assign flavors to pod set head: resource cpu unavailable in ClusterQueue"));
    }

    @Test
    void shouldCountCpuInMillicoresAndSayHowMuchIsMissingAsAQuantity() {
        QueueQuota node = new QueueQuota(
                "gpuaas-team-f",
                Optional.empty(),
                List.of(new FlavorQuota("gpuaas-any-node", "cpu", 4000, 0L, null)),
                false);
        QuotaModel model = model(0, node);

        assertThat(model.tryAdmit("gpuaas-team-f", List.of(new PodSetDemand("head", 1, Map.of("cpu", 2500L)))))
                .isInstanceOf(Admission.Admitted.class);
        assertThat(model.tryAdmit("gpuaas-team-f", List.of(new PodSetDemand("head", 1, Map.of("cpu", 2000L)))))
                .isEqualTo(new Admission.Pending(
                        "Pending",
                        "couldn't assign flavors to pod set head: insufficient unused quota for cpu in flavor"
                                + " gpuaas-any-node, 500m more needed"));
    }

    @Test
    void shouldAdmitEachProfileAgainstItsOwnQuotaWhenOneFlavorCoversSeveralResources() {
        String flex = "h200-flex";
        String g3 = "nvidia.com/mig-3g.71gb";
        String g1 = "nvidia.com/mig-1g.18gb";
        QueueQuota queue = new QueueQuota(
                "gpuaas-team-a",
                Optional.empty(),
                List.of(
                        new FlavorQuota(flex, "nvidia.com/gpu", 1, null, null),
                        new FlavorQuota(flex, g3, 2, null, null),
                        new FlavorQuota(flex, g1, 3, null, null)),
                false);
        QuotaModel model = new QuotaModel(Map.of("gpuaas-team-a", queue), Map.of());

        Admission mixed = model.tryAdmit(
                "gpuaas-team-a", List.of(new PodSetDemand("workers", 2, Map.of(g3, 1L, g1, 1L, "nvidia.com/gpu", 0L))));
        Admission more = model.tryAdmit("gpuaas-team-a", List.of(new PodSetDemand("workers", 1, Map.of(g3, 1L))));
        Admission other = model.tryAdmit("gpuaas-team-a", List.of(new PodSetDemand("workers", 1, Map.of(g1, 1L))));

        assertThat(mixed).isInstanceOfSatisfying(Admission.Admitted.class, a -> assertThat(
                        a.podSets().getFirst().flavors())
                .isEqualTo(Map.of(g3, flex, g1, flex)));
        assertThat(more)
                .as("both 3g.71gb units are used")
                .isInstanceOfSatisfying(Admission.Pending.class, p -> assertThat(p.message())
                        .contains("insufficient unused quota for " + g3 + " in flavor " + flex));
        assertThat(other).as("1g.18gb has its own quota").isInstanceOf(Admission.Admitted.class);
        assertThat(model.used("gpuaas-team-a", flex, g1)).isEqualTo(3);
        assertThat(model.used("gpuaas-team-a", flex, g3)).isEqualTo(2);
    }
}
