package io.gpuaas.quota.model;

import static io.gpuaas.quota.model.Bookings.at;
import static io.gpuaas.quota.model.Bookings.booking;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.events.pool.PoolOverBudget;
import java.time.Instant;
import java.time.YearMonth;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import org.junit.jupiter.api.Test;

class BorrowPlanTest {

    private static final PoolCatalog SHIPPED = PoolCatalog.load(Optional.empty());
    private static final FlavorResource H200 = new FlavorResource("h200", "nvidia.com/gpu");

    private static PoolCatalog withBorrowingOn(String poolId) {
        return new PoolCatalog(SHIPPED.pools().stream()
                .map(p -> p.id().equals(poolId) ? p.withOverBudget(new PoolOverBudget(true)) : p)
                .toList());
    }

    private static SortedSet<FlavorResource> cells(PoolCatalog catalog) {
        DesiredQuota quota = QuotaPlan.at(at(0), List.of(), catalog, Map.of());
        return BorrowPlan.cells(catalog, quota.cells().keySet());
    }

    @Test
    void shouldLetOverBudgetTenantsBorrowOnlyThePoolsWhosePolicySaysSo() {
        assertThat(cells(withBorrowingOn("h200"))).containsExactly(H200);
        assertThat(cells(SHIPPED)).as("the shipped catalog leaves it off").isEmpty();
    }

    @Test
    void shouldGiveAnOverBudgetTenantABorrowQueueInItsLabelledAndBookedNamespaces() {
        SortedSet<FlavorResource> cells = cells(withBorrowingOn("h200"));
        List<io.gpuaas.events.booking.Booking> bookings = List.of(
                booking("b1", "team-a", "team-a-ml", "h200-mig-1g.18gb", 1, at(0), at(60), BookingState.CONFIRMED));

        Map<String, BorrowQueue> queues =
                BorrowPlan.queues(Set.of("team-a"), cells, bookings, Map.of("team-a", Set.of("team-a")));

        assertThat(queues).containsOnlyKeys("team-a");
        assertThat(queues.get("team-a").clusterQueue()).isEqualTo("gpuaas-team-a.borrowed");
        assertThat(queues.get("team-a").namespaces()).containsExactly("team-a", "team-a-ml");
    }

    @Test
    void shouldGiveNoBorrowQueueWhenTheTenantIsNotOverBudgetOrNoPoolAllowsItOrItHasNoNamespace() {
        Map<String, Set<String>> namespaces = Map.of("team-a", Set.of("team-a"), "team-b", Set.of("team-b"));

        assertThat(BorrowPlan.queues(Set.of("team-b"), cells(withBorrowingOn("h200")), List.of(), namespaces))
                .as("only over-budget tenants")
                .doesNotContainKey("team-a");
        assertThat(BorrowPlan.queues(Set.of("team-a"), cells(SHIPPED), List.of(), namespaces))
                .as("policy off")
                .isEmpty();
        assertThat(BorrowPlan.queues(Set.of("team-z"), cells(withBorrowingOn("h200")), List.of(), namespaces))
                .as("nowhere to submit")
                .isEmpty();
        assertThat(BorrowPlan.queues(Set.of("Not.A.Label"), cells(withBorrowingOn("h200")), List.of(), namespaces))
                .isEmpty();
    }

    @Test
    void shouldCountTheUtcCalendarMonthAndTurnItAtMidnightUtc() {
        Instant lastSecond = Instant.parse("2026-11-30T23:59:59Z");

        assertThat(BorrowPlan.month(lastSecond)).isEqualTo(YearMonth.of(2026, 11));
        assertThat(BorrowPlan.nextMonth(lastSecond)).isEqualTo(Instant.parse("2026-12-01T00:00:00Z"));
        assertThat(BorrowPlan.month(BorrowPlan.nextMonth(lastSecond))).isEqualTo(YearMonth.of(2026, 12));
    }

    @Test
    void shouldNameBorrowQueuesApartFromEveryTenantQueue() {
        assertThat(BorrowPlan.isBorrowQueue(BorrowPlan.clusterQueueName("team-a")))
                .isTrue();
        assertThat(BorrowPlan.isBorrowQueue(QuotaPlan.clusterQueueName("team-a-borrowed")))
                .as("a tenant id holds no dot, so no tenant queue looks like a borrow queue")
                .isFalse();
    }
}
