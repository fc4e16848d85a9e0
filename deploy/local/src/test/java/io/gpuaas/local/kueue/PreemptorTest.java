package io.gpuaas.local.kueue;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.local.kueue.Admission.PodSetAssignment;
import io.gpuaas.local.model.PodSetDemand;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Kueue's classical preemption on the stand-in's quota arithmetic. The cohort's shape is gpuaas's: 4 GPUs, a
 * booked tenant's queue holding them as nominal quota, the cohort holding what is left, and an over-budget tenant's
 * queue with nominal 0 that can only borrow.
 */
class PreemptorTest {

    private static final String GPU = "nvidia.com/gpu";
    private static final String FLAVOR = "h200";
    private static final PreemptionPolicy SHIPPED =
            new PreemptionPolicy(PreemptionPolicy.ANY, PreemptionPolicy.LOWER_PRIORITY);
    private static final int BORROWED = -100;

    private final Map<String, QueueQuota> queues = new LinkedHashMap<>();
    private final List<Preemptor.Running> running = new ArrayList<>();
    private long cohortNominal;
    private QuotaModel model;

    private void queue(String name, long nominal, PreemptionPolicy policy) {
        queues.put(
                name,
                new QueueQuota(
                        name,
                        Optional.of("gpuaas-pool"),
                        List.of(new FlavorQuota(FLAVOR, GPU, nominal, null, null)),
                        false,
                        policy));
    }

    private void build() {
        model = new QuotaModel(
                queues, Map.of("gpuaas-pool", List.of(new FlavorQuota(FLAVOR, GPU, cohortNominal, null, null))));
    }

    private void admitted(String key, String queue, long gpus, int priority, String admittedAt) {
        List<PodSetAssignment> podSets =
                List.of(new PodSetAssignment("main", (int) gpus, Map.of(GPU, FLAVOR), Map.of(GPU, gpus)));
        model.charge(queue, podSets);
        running.add(new Preemptor.Running(key, queue, priority, admittedAt, admittedAt, podSets));
    }

    private Optional<Preemptor.Plan> plan(String queue, long gpus, int priority) {
        return new Preemptor(model)
                .plan(
                        queue,
                        priority,
                        "2026-11-28T12:00:00Z",
                        List.of(new PodSetDemand("main", (int) gpus, Map.of(GPU, 1L))),
                        running);
    }

    private static List<String> keys(Preemptor.Plan plan) {
        return plan.targets().stream().map(t -> t.workload().key()).toList();
    }

    @Test
    void shouldReclaimFromTheBorrowerWhenTheBookedQueueIsUnderItsNominalQuota() {
        queue("gpuaas-booked", 4, SHIPPED);
        queue("gpuaas-over.borrowed", 0, SHIPPED);
        build();
        admitted("over/w1", "gpuaas-over.borrowed", 4, BORROWED, "2026-11-28T10:00:00Z");

        Optional<Preemptor.Plan> plan = plan("gpuaas-booked", 2, 0);

        assertThat(plan).hasValueSatisfying(p -> {
            assertThat(keys(p)).containsExactly("over/w1");
            assertThat(p.targets().getFirst().reason()).isEqualTo(Preemptor.IN_COHORT_RECLAMATION);
            assertThat(p.podSets().getFirst().flavors()).containsEntry(GPU, FLAVOR);
        });
        assertThat(model.used("gpuaas-over.borrowed", FLAVOR, GPU))
                .as("planning leaves the model as it was")
                .isEqualTo(4);
    }

    @Test
    void shouldEvictOnlyTheMostRecentlyAdmittedBorrowerWhenOneIsEnough() {
        queue("gpuaas-booked", 4, SHIPPED);
        queue("gpuaas-over.borrowed", 0, SHIPPED);
        build();
        admitted("over/older", "gpuaas-over.borrowed", 2, BORROWED, "2026-11-28T10:00:00Z");
        admitted("over/newer", "gpuaas-over.borrowed", 2, BORROWED, "2026-11-28T11:00:00Z");

        assertThat(plan("gpuaas-booked", 2, 0))
                .hasValueSatisfying(p -> assertThat(keys(p)).containsExactly("over/newer"));
        assertThat(plan("gpuaas-booked", 4, 0))
                .hasValueSatisfying(p -> assertThat(keys(p)).containsExactlyInAnyOrder("over/newer", "over/older"));
    }

    @Test
    void shouldReclaimAnyPriorityUnderAnyButOnlyLowerOnesUnderLowerPriority() {
        queue("gpuaas-booked", 4, new PreemptionPolicy(PreemptionPolicy.LOWER_PRIORITY, PreemptionPolicy.NEVER));
        queue("gpuaas-other", 0, SHIPPED);
        build();
        admitted("other/same-priority", "gpuaas-other", 2, 0, "2026-11-28T10:00:00Z");
        admitted("other/borrowed", "gpuaas-other", 2, BORROWED, "2026-11-28T09:00:00Z");

        assertThat(plan("gpuaas-booked", 2, 0))
                .hasValueSatisfying(p -> assertThat(keys(p)).containsExactly("other/borrowed"));
        assertThat(plan("gpuaas-booked", 4, 0))
                .as("the equal-priority Workload is out of reach under LowerPriority")
                .isEmpty();
    }

    @Test
    void shouldNotReclaimWhenThePendingWorkloadWouldHaveToBorrowItself() {
        queue("gpuaas-booked", 2, SHIPPED);
        queue("gpuaas-over.borrowed", 0, SHIPPED);
        cohortNominal = 2;
        build();
        admitted("booked/w1", "gpuaas-booked", 2, 0, "2026-11-28T09:00:00Z");
        admitted("over/w1", "gpuaas-over.borrowed", 2, BORROWED, "2026-11-28T10:00:00Z");

        assertThat(plan("gpuaas-booked", 2, 0))
                .as("its queue is at its nominal quota: Kueue reclaims only for a Workload within it")
                .isEmpty();
    }

    @Test
    void shouldNeverEvictFromAQueueThatIsNotBorrowing() {
        queue("gpuaas-a", 2, SHIPPED);
        queue("gpuaas-b", 2, SHIPPED);
        build();
        admitted("b/w1", "gpuaas-b", 2, BORROWED, "2026-11-28T10:00:00Z");
        admitted("a/w1", "gpuaas-a", 2, 0, "2026-11-28T10:00:00Z");

        assertThat(plan("gpuaas-a", 1, 0)).isEmpty();
    }

    @Test
    void shouldPreemptALowerPriorityWorkloadOfItsOwnQueueWithinTheClusterQueue() {
        queue("gpuaas-booked", 2, SHIPPED);
        build();
        admitted("booked/low", "gpuaas-booked", 2, BORROWED, "2026-11-28T10:00:00Z");

        assertThat(plan("gpuaas-booked", 2, 0)).hasValueSatisfying(p -> {
            assertThat(keys(p)).containsExactly("booked/low");
            assertThat(p.targets().getFirst().reason()).isEqualTo(Preemptor.IN_CLUSTER_QUEUE);
        });
        assertThat(plan("gpuaas-booked", 2, BORROWED))
                .as("not an equal priority under LowerPriority")
                .isEmpty();
    }

    @Test
    void shouldNotPlanWhenTheWorkloadFitsOrCouldNeverFit() {
        queue("gpuaas-booked", 4, SHIPPED);
        queue("gpuaas-over.borrowed", 0, SHIPPED);
        build();
        admitted("over/w1", "gpuaas-over.borrowed", 2, BORROWED, "2026-11-28T10:00:00Z");

        assertThat(plan("gpuaas-booked", 2, 0))
                .as("fits without evicting anyone")
                .isEmpty();
        assertThat(plan("gpuaas-booked", 5, 0)).as("more than the whole cohort").isEmpty();
    }

    @Test
    void shouldNotLetABorrowOnlyQueueReclaimFromAnotherBorrower() {
        queue("gpuaas-x.borrowed", 0, SHIPPED);
        queue("gpuaas-y.borrowed", 0, SHIPPED);
        cohortNominal = 2;
        build();
        admitted("y/w1", "gpuaas-y.borrowed", 2, BORROWED, "2026-11-28T10:00:00Z");

        assertThat(plan("gpuaas-x.borrowed", 2, BORROWED))
                .as("a queue with no nominal quota is never under it, so it never reclaims")
                .isEmpty();
    }
}
