package io.gpuaas.quota.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.gpuaas.quota.model.FlavorResource;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class QuotaBudgetTest {

    private static final FlavorResource GPU = new FlavorResource("h200", "nvidia.com/gpu");
    private static final FlavorResource MIG = new FlavorResource("h200-mig-1g.18gb", "nvidia.com/mig-1g.18gb");
    private static final SortedMap<FlavorResource, Long> CAPACITY = new TreeMap<>(Map.of(GPU, 8L, MIG, 14L));
    private static final KueueManifests MANIFESTS =
            new KueueManifests(new ManifestSettings("gpuaas-pool", "gpuaas", true, false));
    private static final ObjectRef COHORT = new ObjectRef(Kind.COHORT, null, "gpuaas-pool");

    private final List<ObjectRef> woken = new ArrayList<>();
    private final QuotaBudget budget = new QuotaBudget("gpuaas-pool", woken::add);
    private final AtomicLong versions = new AtomicLong();
    private final Map<String, Integer> incarnations = new java.util.HashMap<>();

    @Test
    void shouldLetATenantQueueGrowOnlyAfterTheCohortShrankWhenABookingStarts() {
        budget.observed(COHORT, cohort(8, 14));
        ObjectRef alpha = queue("alpha");

        QuotaBudget.Grant early = budget.reserve(alpha, cells(2, 0), CAPACITY, false);
        budget.release(alpha, null);
        assertThat(early.complete()).isFalse();
        assertThat(early.cells()).isEqualTo(cells(0, 0));

        assertThat(budget.reserve(COHORT, cells(6, 14), CAPACITY, true).complete())
                .isTrue();
        budget.release(COHORT, cohort(6, 14));
        assertThat(woken).as("the cohort's shrink wakes the waiting queue").containsExactly(alpha);

        QuotaBudget.Grant after = budget.reserve(alpha, cells(2, 0), CAPACITY, false);
        budget.release(alpha, clusterQueue("alpha", 2, 0));
        assertThat(after.complete()).isTrue();
        assertThat(budget.total(GPU)).isEqualTo(8);
    }

    @Test
    void shouldGiveTheCohortOnlyWhatAnEndingQueueHasGivenBackWhenABookingEnds() {
        budget.observed(COHORT, cohort(6, 14));
        HasMetadata bravo = clusterQueue("bravo", 2, 0);
        budget.observed(queue("bravo"), bravo);

        QuotaBudget.Grant early = budget.reserve(COHORT, cells(8, 14), CAPACITY, true);
        budget.release(COHORT, cohort(6, 14));
        assertThat(early.complete()).isFalse();
        assertThat(early.cells()).isEqualTo(cells(6, 14));

        budget.deletedByUs(queue("bravo"), bravo);
        assertThat(woken).containsExactly(COHORT);
        assertThat(budget.reserve(COHORT, cells(8, 14), CAPACITY, true).complete())
                .isTrue();
    }

    @Test
    void shouldNotGrantTheSameRoomTwiceWhenTwoQueuesReserveBeforeEitherHasWritten() {
        budget.observed(COHORT, cohort(4, 14));

        QuotaBudget.Grant first = budget.reserve(queue("alpha"), cells(3, 0), CAPACITY, false);
        QuotaBudget.Grant second = budget.reserve(queue("bravo"), cells(3, 0), CAPACITY, false);

        assertThat(first.complete()).isTrue();
        assertThat(second.complete()).isFalse();
        assertThat(budget.total(GPU)).isEqualTo(7);
        budget.release(queue("alpha"), clusterQueue("alpha", 3, 0));
        assertThat(woken).as("alpha's write took room, it freed none").isEmpty();
    }

    @Test
    void shouldIgnoreANotificationOlderThanItsOwnWriteWhenTheWatchLags() {
        HasMetadata before = cohort(8, 14);
        HasMetadata written = cohort(6, 14);
        budget.observed(COHORT, written);

        budget.observed(COHORT, before);

        assertThat(budget.total(GPU)).isEqualTo(6);
        budget.observed(queue("alpha"), clusterQueue("alpha", 2, 0));
        assertThat(budget.total(GPU)).isEqualTo(8);
    }

    @Test
    void shouldCountNeitherForeignQueuesNorAnotherCohortWhenTheyHoldQuota() {
        HasMetadata foreign = clusterQueue("alpha", 5, 0);
        foreign.getMetadata().setLabels(Map.of());
        budget.observed(queue("alpha"), foreign);
        budget.observed(new ObjectRef(Kind.COHORT, null, "other"), cohort(8, 14));

        assertThat(budget.total(GPU)).isZero();
    }

    /**
     * Many random boundaries, each applied by up to four writers in a random order with writes overlapping: the
     * cluster's total never goes over capacity, and every object reaches the plan in the end.
     */
    @Test
    void shouldKeepTheClusterAtOrUnderCapacityAndReachThePlanWhateverOrderTheWritersRunIn() {
        Random random = new Random(15);
        List<String> tenants = List.of("a", "b", "c", "d", "e", "f");
        Map<ObjectRef, SortedMap<FlavorResource, Long>> cluster = new TreeMap<>();
        cluster.put(COHORT, cells(8, 14));
        budget.observed(COHORT, cohort(8, 14));
        for (int round = 0; round < 500; round++) {
            Map<ObjectRef, SortedMap<FlavorResource, Long>> plan = randomPlan(random, tenants);
            apply(random, plan, cluster);
            assertThat(cluster).as("round %d reaches its plan", round).isEqualTo(plan);
        }
    }

    /** Writers take keys in random order, up to four at once, and finish in random order. */
    private void apply(
            Random random,
            Map<ObjectRef, SortedMap<FlavorResource, Long>> plan,
            Map<ObjectRef, SortedMap<FlavorResource, Long>> cluster) {
        Set<ObjectRef> queued = new LinkedHashSet<>(plan.keySet());
        queued.addAll(cluster.keySet());
        Map<ObjectRef, SortedMap<FlavorResource, Long>> inFlight = new TreeMap<>();
        woken.clear();
        int steps = 0;
        while (!queued.isEmpty() || !inFlight.isEmpty() || !woken.isEmpty()) {
            assertThat(steps++).as("no livelock").isLessThan(10_000);
            queued.addAll(woken);
            woken.clear();
            List<ObjectRef> startable =
                    queued.stream().filter(k -> !inFlight.containsKey(k)).toList();
            if (!startable.isEmpty() && (inFlight.isEmpty() || inFlight.size() < 4 && random.nextBoolean())) {
                ObjectRef key = startable.get(random.nextInt(startable.size()));
                queued.remove(key);
                SortedMap<FlavorResource, Long> wanted = plan.getOrDefault(key, cells(0, 0));
                QuotaBudget.Grant grant = budget.reserve(key, wanted, CAPACITY, key.equals(COHORT));
                inFlight.put(key, grant.cells());
                continue;
            }
            ObjectRef done = new ArrayList<>(inFlight.keySet()).get(random.nextInt(inFlight.size()));
            SortedMap<FlavorResource, Long> written = inFlight.remove(done);
            if (written.values().stream().allMatch(v -> v == 0) && !done.equals(COHORT)) {
                HasMetadata gone = cluster.containsKey(done) ? object(done, cluster.get(done)) : null;
                cluster.remove(done);
                if (gone != null) {
                    budget.deletedByUs(done, gone);
                    incarnations.merge(done.name().substring("gpuaas-".length()), 1, Integer::sum);
                }
                budget.release(done, null);
            } else {
                cluster.put(done, written);
                budget.release(done, object(done, written));
            }
            for (FlavorResource cell : CAPACITY.keySet()) {
                long total = cluster.values().stream()
                        .mapToLong(c -> c.getOrDefault(cell, 0L))
                        .sum();
                assertThat(total).as("total on %s", cell).isLessThanOrEqualTo(CAPACITY.get(cell));
            }
        }
    }

    private static Map<ObjectRef, SortedMap<FlavorResource, Long>> randomPlan(Random random, List<String> tenants) {
        Map<ObjectRef, SortedMap<FlavorResource, Long>> plan = new TreeMap<>();
        long gpu = 0;
        long mig = 0;
        for (String tenant : tenants) {
            if (random.nextInt(3) == 0) {
                continue;
            }
            long g = random.nextLong(Math.max(1, (CAPACITY.get(GPU) - gpu) / 2 + 1));
            long m = random.nextLong(Math.max(1, (CAPACITY.get(MIG) - mig) / 2 + 1));
            if (g + m > 0) {
                plan.put(queue(tenant), cells(g, m));
                gpu += g;
                mig += m;
            }
        }
        plan.put(COHORT, cells(CAPACITY.get(GPU) - gpu, CAPACITY.get(MIG) - mig));
        return plan;
    }

    private HasMetadata object(ObjectRef ref, SortedMap<FlavorResource, Long> cells) {
        return ref.equals(COHORT)
                ? cohort(cells.get(GPU), cells.get(MIG))
                : clusterQueue(ref.name().substring("gpuaas-".length()), cells.get(GPU), cells.get(MIG));
    }

    private static ObjectRef queue(String tenant) {
        return new ObjectRef(Kind.CLUSTER_QUEUE, null, "gpuaas-" + tenant);
    }

    private static SortedMap<FlavorResource, Long> cells(long gpu, long mig) {
        return new TreeMap<>(Map.of(GPU, gpu, MIG, mig));
    }

    private HasMetadata cohort(long gpu, long mig) {
        return versioned(MANIFESTS.cohort(cells(gpu, mig)), "cohort");
    }

    private HasMetadata clusterQueue(String tenant, long gpu, long mig) {
        return versioned(MANIFESTS.clusterQueue(tenant, cells(gpu, mig), "None"), tenant);
    }

    /** As the API server hands objects back: a uid per incarnation of a name, a resourceVersion that only grows. */
    private HasMetadata versioned(HasMetadata object, String name) {
        object.getMetadata().setUid("uid-" + name + "-" + incarnations.getOrDefault(name, 0));
        object.getMetadata().setResourceVersion(Long.toString(versions.incrementAndGet()));
        return object;
    }
}
