package io.gpuaas.quota.model;

import static io.gpuaas.quota.model.Bookings.booking;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.quota.k8s.Kind;
import io.gpuaas.quota.k8s.KueueManifests;
import io.gpuaas.quota.k8s.ManifestSettings;
import io.gpuaas.quota.k8s.NominalQuota;
import io.gpuaas.quota.k8s.ObjectRef;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Invariant 2 of DESIGN.md over many random booking histories: at every window boundary (and just before it), per
 * flavor and resource, the cohort's nominal quota plus every tenant ClusterQueue's equals the physical capacity,
 * and each tenant queue holds exactly its active bookings. Checked on the rendered Kueue objects.
 */
class QuotaPlanPropertyTest {

    private static final PoolCatalog POOLS = PoolCatalog.load(Optional.empty());
    private static final KueueManifests MANIFESTS =
            new KueueManifests(new ManifestSettings("gpuaas-pool", "gpuaas", true, true));

    @Test
    void shouldKeepCohortPlusTenantQuotaEqualToCapacityWhenCheckedAtEveryBoundaryOfRandomHistories() {
        for (long seed = 1; seed <= 100; seed++) {
            Random random = new Random(seed);
            List<Booking> bookings = randomHistory(random, 10 + random.nextInt(40));
            TreeSet<Instant> instants = new TreeSet<>();
            Instant cursor = Bookings.T0.minusSeconds(1);
            for (Optional<Instant> next = QuotaPlan.nextBoundary(bookings, cursor);
                    next.isPresent();
                    next = QuotaPlan.nextBoundary(bookings, cursor)) {
                cursor = next.get();
                instants.add(cursor);
                instants.add(cursor.minusMillis(1));
            }
            for (Instant t : instants) {
                assertInvariant(seed, t, bookings);
            }
        }
    }

    private static void assertInvariant(long seed, Instant t, List<Booking> bookings) {
        DesiredQuota quota = QuotaPlan.at(t, bookings, POOLS, Map.of());
        assertThat(quota.problems()).as("seed %d at %s", seed, t).isEmpty();
        Map<ObjectRef, HasMetadata> objects = MANIFESTS.render(quota);
        assertCpuAndMemoryAreAPerQueueCeiling(seed, t, objects);
        for (Pool pool : POOLS.pools()) {
            FlavorResource cell = new FlavorResource(pool.flavor(), pool.resource());
            BigDecimal total = objects.entrySet().stream()
                    .filter(e -> e.getKey().kind() == Kind.COHORT || e.getKey().kind() == Kind.CLUSTER_QUEUE)
                    .map(e -> NominalQuota.of(e.getValue()).getOrDefault(cell, BigDecimal.ZERO))
                    .reduce(BigDecimal.ZERO, BigDecimal::add);
            assertThat(total)
                    .as("seed %d, %s at %s", seed, cell, t)
                    .isEqualByComparingTo(BigDecimal.valueOf(pool.capacity()));
            quota.tenants().values().forEach(tenant -> assertThat(BigDecimal.valueOf(tenant.nominal(cell)))
                    .as("seed %d, %s of %s at %s", seed, cell, tenant.tenant(), t)
                    .isEqualByComparingTo(BigDecimal.valueOf(activeUnits(bookings, tenant.tenant(), cell, t))));
        }
    }

    /** cpu/memory: every ClusterQueue holds exactly the ceiling, the Cohort none, so their sum is not capacity. */
    private static void assertCpuAndMemoryAreAPerQueueCeiling(
            long seed, Instant t, Map<ObjectRef, HasMetadata> objects) {
        FlavorResource cpu = new FlavorResource("gpuaas-any-node", "cpu");
        FlavorResource memory = new FlavorResource("gpuaas-any-node", "memory");
        objects.forEach((ref, object) -> {
            if (ref.kind() == Kind.CLUSTER_QUEUE) {
                assertThat(NominalQuota.of(object))
                        .as("seed %d, %s at %s", seed, ref, t)
                        .containsEntry(cpu, new BigDecimal("100000"))
                        .containsEntry(memory, NominalQuota.quantity("1Pi"));
            } else if (ref.kind() == Kind.COHORT) {
                assertThat(NominalQuota.of(object)).doesNotContainKeys(cpu, memory);
            }
        });
    }

    private static long activeUnits(List<Booking> bookings, String tenant, FlavorResource cell, Instant t) {
        return bookings.stream()
                .filter(b -> b.activeAt(t)
                        && b.tenant().equals(tenant)
                        && b.flavor().equals(cell.flavor())
                        && b.resource().equals(cell.resource()))
                .mapToLong(Booking::quantity)
                .sum();
    }

    /** Bookings a capacity-respecting decider would have confirmed, some later cancelled or completed. */
    private static List<Booking> randomHistory(Random random, int attempts) {
        List<Booking> accepted = new ArrayList<>();
        for (int i = 0; i < attempts; i++) {
            Pool pool = POOLS.pools().get(random.nextInt(POOLS.pools().size()));
            Instant start = Bookings.at(random.nextInt(24 * 60));
            Instant end = start.plusSeconds(60L * (1 + random.nextInt(6 * 60)));
            int quantity = 1 + random.nextInt(Math.max(1, pool.capacity() / 2));
            BookingState state = BookingState.values()[random.nextInt(BookingState.values().length)];
            Booking candidate = booking(
                    "b" + i,
                    "team-" + random.nextInt(6),
                    "ns-" + random.nextInt(3),
                    pool.id(),
                    quantity,
                    start,
                    end,
                    state);
            if (!state.holdsCapacity() || fits(accepted, candidate, pool.capacity())) {
                accepted.add(candidate);
            }
        }
        return accepted;
    }

    private static boolean fits(List<Booking> accepted, Booking candidate, int capacity) {
        List<Booking> samePool =
                accepted.stream().filter(b -> b.pool().equals(candidate.pool())).toList();
        List<Instant> points = new ArrayList<>(List.of(candidate.start()));
        samePool.forEach(b -> points.add(b.start()));
        return points.stream()
                .filter(p -> candidate.activeAt(p))
                .allMatch(p -> samePool.stream()
                                        .filter(b -> b.activeAt(p))
                                        .mapToInt(Booking::quantity)
                                        .sum()
                                + candidate.quantity()
                        <= capacity);
    }
}
