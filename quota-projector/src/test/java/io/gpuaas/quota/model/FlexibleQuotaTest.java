package io.gpuaas.quota.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.booking.PlacedUnit;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.events.pool.PoolNode;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FlexibleQuotaTest {

    static final Pool FLEX =
            Pool.flexible("h200-flex", "h200-flex", "NVIDIA H200", null, List.of(new PoolNode("n1", 2)));
    static final PoolCatalog CATALOG = new PoolCatalog(List.of(FLEX));
    static final Instant T0 = Instant.parse("2026-11-22T10:00:00Z");
    static final FlavorResource GPU = new FlavorResource("h200-flex", "nvidia.com/gpu");
    static final FlavorResource THREE_G = new FlavorResource("h200-flex", "nvidia.com/mig-3g.71gb");

    static Booking threeG(int units, Instant start, Instant end) {
        List<PlacedUnit> placement = units == 1
                ? List.of(PlacedUnit.mig("n1", 1, "3g.71gb", 0))
                : List.of(PlacedUnit.mig("n1", 1, "3g.71gb", 0), PlacedUnit.mig("n1", 1, "3g.71gb", 4));
        return new Booking(
                "b1",
                "team-a",
                "team-a",
                "h200-flex",
                "h200-flex",
                "nvidia.com/mig-3g.71gb",
                units,
                start,
                end,
                null,
                BookingState.CONFIRMED,
                "alice",
                T0,
                T0,
                1,
                placement);
    }

    @Test
    void shouldGiveTheTenantItsProfileForExactlyItsWindowAndTheCohortWhatTheLayoutsInForceOffer() {
        Map<FlavorResource, Long> inForce = Map.of(GPU, 1L, THREE_G, 2L);
        List<Booking> bookings = List.of(threeG(1, T0.plusSeconds(600), T0.plusSeconds(1200)));

        DesiredQuota before = QuotaPlan.at(T0.plusSeconds(599), bookings, CATALOG, Map.of(), inForce);
        DesiredQuota during = QuotaPlan.at(T0.plusSeconds(600), bookings, CATALOG, Map.of(), inForce);

        assertThat(before.tenants()).isEmpty();
        assertThat(before.cohortNominal()).containsEntry(GPU, 1L).containsEntry(THREE_G, 2L);
        assertThat(during.tenants().get("team-a").nominal(THREE_G)).isEqualTo(1L);
        assertThat(during.cohortNominal()).containsEntry(GPU, 1L).containsEntry(THREE_G, 1L);
        assertThat(during.cells().keySet())
                .as("every bookable profile is a cell, 0 where nothing offers it")
                .contains(new FlavorResource("h200-flex", "nvidia.com/mig-1g.18gb"));
        assertThat(during.cohortNominal()).containsEntry(new FlavorResource("h200-flex", "nvidia.com/mig-1g.18gb"), 0L);
        assertThat(during.problems()).isEmpty();
    }

    @Test
    void shouldCountAFlexiblePoolAsWholeGpusBeforeAnyLayoutIsObserved() {
        DesiredQuota quota = QuotaPlan.at(T0, List.of(), CATALOG, Map.of(), Map.of());

        assertThat(quota.cohortNominal()).containsEntry(GPU, 2L).containsEntry(THREE_G, 0L);
    }

    @Test
    void shouldReportAProblemRatherThanLendSlicesThatDoNotExist() {
        Map<FlavorResource, Long> inForce = Map.of(GPU, 2L);
        List<Booking> bookings = List.of(threeG(2, T0, T0.plusSeconds(600)));

        DesiredQuota quota = QuotaPlan.at(T0, bookings, CATALOG, Map.of(), inForce);

        assertThat(quota.cohortNominal()).containsEntry(THREE_G, 0L).containsEntry(GPU, 2L);
        assertThat(quota.problems()).singleElement().asString().contains("over capacity");
    }
}
