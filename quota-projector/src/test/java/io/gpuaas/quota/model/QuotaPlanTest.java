package io.gpuaas.quota.model;

import static io.gpuaas.quota.model.Bookings.at;
import static io.gpuaas.quota.model.Bookings.booking;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.pool.PoolCatalog;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class QuotaPlanTest {

    private static final PoolCatalog POOLS = PoolCatalog.load(Optional.empty());
    private static final FlavorResource H200 = new FlavorResource("h200", "nvidia.com/gpu");
    private static final FlavorResource MIG_2G = new FlavorResource("h200-mig-2g.35gb", "nvidia.com/mig-2g.35gb");

    @Test
    void shouldGiveTenantItsBookedUnitsAndCohortTheRestWhenBookingIsActive() {
        List<Booking> bookings = List.of(booking("b1", "team-a", "h200", 3, at(0), at(60)));

        DesiredQuota quota = QuotaPlan.at(at(10), bookings, POOLS, Map.of());

        assertThat(quota.tenants()).containsOnlyKeys("team-a");
        TenantQueue teamA = quota.tenants().get("team-a");
        assertThat(teamA.clusterQueue()).isEqualTo("gpuaas-team-a");
        assertThat(teamA.nominal()).containsExactlyEntriesOf(Map.of(H200, 3L));
        assertThat(quota.cohortNominal()).containsEntry(H200, 5L).containsEntry(MIG_2G, 9L);
        assertThat(quota.problems()).isEmpty();
    }

    @Test
    void shouldGiveNoQuotaWhenABookingAwaitsApprovalOrWasDeniedInsideItsWindow() {
        List<Booking> bookings = List.of(
                booking("b1", "team-a", "team-a", "h200", 3, at(0), at(60), BookingState.PENDING_APPROVAL),
                booking("b2", "team-b", "team-b", "h200", 2, at(0), at(60), BookingState.DENIED));

        DesiredQuota quota = QuotaPlan.at(at(10), bookings, POOLS, Map.of());

        assertThat(quota.tenants()).isEmpty();
        assertThat(quota.cohortNominal()).containsEntry(H200, 8L);
        assertThat(QuotaPlan.nextBoundary(bookings, at(-10)))
                .as("no boundary to wake up for")
                .isEmpty();
    }

    @Test
    void shouldAddUpOverlappingBookingsWhenOneTenantHoldsTwo() {
        List<Booking> bookings = List.of(
                booking("b1", "team-a", "h200", 3, at(0), at(60)), booking("b2", "team-a", "h200", 2, at(30), at(90)));

        assertThat(QuotaPlan.at(at(10), bookings, POOLS, Map.of())
                        .tenants()
                        .get("team-a")
                        .nominal(H200))
                .isEqualTo(3);
        assertThat(QuotaPlan.at(at(45), bookings, POOLS, Map.of())
                        .tenants()
                        .get("team-a")
                        .nominal(H200))
                .isEqualTo(5);
        assertThat(QuotaPlan.at(at(60), bookings, POOLS, Map.of())
                        .tenants()
                        .get("team-a")
                        .nominal(H200))
                .isEqualTo(2);
        assertThat(QuotaPlan.at(at(90), bookings, POOLS, Map.of()).tenants()).isEmpty();
    }

    @Test
    void shouldTreatWindowAsHalfOpenWhenAtExactBoundaries() {
        List<Booking> bookings = List.of(booking("b1", "team-a", "h200", 3, at(0), at(60)));

        assertThat(QuotaPlan.at(at(0).minusMillis(1), bookings, POOLS, Map.of()).tenants())
                .isEmpty();
        assertThat(QuotaPlan.at(at(0), bookings, POOLS, Map.of()).tenants()).containsKey("team-a");
        assertThat(QuotaPlan.at(at(60), bookings, POOLS, Map.of()).tenants()).isEmpty();
        assertThat(QuotaPlan.at(at(60), bookings, POOLS, Map.of()).cohortNominal())
                .containsEntry(H200, 8L);
    }

    @Test
    void shouldIgnoreCancelledAndCompletedBookingsWhenPlanning() {
        List<Booking> bookings = List.of(
                booking("b1", "team-a", "team-a", "h200", 3, at(0), at(60), BookingState.CANCELLED),
                booking("b2", "team-b", "team-b", "h200", 1, at(0), at(60), BookingState.COMPLETED),
                booking("b3", "team-c", "team-c", "h200", 2, at(0), at(60), BookingState.ACTIVE));

        DesiredQuota quota = QuotaPlan.at(at(1), bookings, POOLS, Map.of());

        assertThat(quota.tenants()).containsOnlyKeys("team-c");
        assertThat(quota.cohortNominal()).containsEntry(H200, 6L);
    }

    @Test
    void shouldPutLocalQueuesInLabelledAndBookedNamespacesWhenTenantHasSeveral() {
        List<Booking> bookings =
                List.of(booking("b1", "team-a", "team-a-ml", "h200", 1, at(0), at(60), BookingState.CONFIRMED));

        DesiredQuota quota = QuotaPlan.at(
                at(1), bookings, POOLS, Map.of("team-a", Set.of("team-a", "team-a-dev"), "team-b", Set.of("team-b")));

        assertThat(quota.tenants().get("team-a").namespaces()).containsExactly("team-a", "team-a-dev", "team-a-ml");
        assertThat(quota.tenants()).doesNotContainKey("team-b");
    }

    @Test
    void shouldReportProblemWhenBookingNamesUnknownPoolOrBadTenant() {
        List<Booking> bookings = List.of(
                booking("b1", "team-a", "h200-mig-7g.141gb", 1, at(0), at(60)),
                booking("b2", "Team_B", "h200", 1, at(0), at(60)));

        DesiredQuota quota = QuotaPlan.at(at(1), bookings, POOLS, Map.of());

        assertThat(quota.tenants()).isEmpty();
        assertThat(quota.cohortNominal()).containsEntry(H200, 8L);
        assertThat(quota.problems())
                .hasSize(2)
                .anySatisfy(p -> assertThat(p).contains("b1", "no pool"))
                .anySatisfy(p -> assertThat(p).contains("b2", "DNS label"));
    }

    @Test
    void shouldClampCohortAndReportWhenReservationsExceedCapacity() {
        List<Booking> bookings = List.of(
                booking("b1", "team-a", "h200", 6, at(0), at(60)), booking("b2", "team-b", "h200", 6, at(0), at(60)));

        DesiredQuota quota = QuotaPlan.at(at(1), bookings, POOLS, Map.of());

        assertThat(quota.cohortNominal()).containsEntry(H200, 0L);
        assertThat(quota.problems()).singleElement().asString().contains("over capacity", "reserved 12 of 8");
    }

    @Test
    void shouldFindNextStartOrEndWhenAskingForNextBoundary() {
        List<Booking> bookings = List.of(
                booking("b1", "team-a", "h200", 3, at(0), at(60)),
                booking("b2", "team-b", "team-b", "h200", 2, at(30), at(90), BookingState.CANCELLED),
                booking("b3", "team-b", "h200", 2, at(45), at(50)));

        assertThat(QuotaPlan.nextBoundary(bookings, at(-5))).contains(at(0));
        assertThat(QuotaPlan.nextBoundary(bookings, at(0))).contains(at(45));
        assertThat(QuotaPlan.nextBoundary(bookings, at(50))).contains(at(60));
        assertThat(QuotaPlan.nextBoundary(bookings, at(60))).isEmpty();
    }

    @Test
    void shouldWantTheTenantsQueuesFromTheLeadBeforeItsWindowAndItsQuotaOnlyInItWhenAQueueLeadIsSet() {
        List<Booking> bookings = List.of(booking("b1", "team-a", "h200", 3, at(0), at(60)));
        Duration lead = Duration.ofMinutes(2);

        DesiredQuota early = QuotaPlan.at(at(-3), bookings, POOLS, Map.of(), Map.of(), lead);
        DesiredQuota ahead = QuotaPlan.at(at(-2), bookings, POOLS, Map.of(), Map.of(), lead);
        DesiredQuota during = QuotaPlan.at(at(0), bookings, POOLS, Map.of(), Map.of(), lead);
        DesiredQuota after = QuotaPlan.at(at(60), bookings, POOLS, Map.of(), Map.of(), lead);

        assertThat(early.queues()).isEmpty();
        assertThat(ahead.queues()).containsOnlyKeys("team-a");
        assertThat(ahead.tenants()).as("no quota before the window").isEmpty();
        assertThat(ahead.cohortNominal()).containsEntry(H200, 8L);
        assertThat(during.tenants().get("team-a").nominal(H200)).isEqualTo(3);
        assertThat(during.queues()).isEqualTo(during.tenants());
        assertThat(after.queues()).isEmpty();
        assertThat(after.tenants()).isEmpty();
        assertThat(QuotaPlan.nextBoundary(bookings, at(-10), lead)).contains(at(-2));
        assertThat(QuotaPlan.nextBoundary(bookings, at(-2), lead)).contains(at(0));
        assertThat(QuotaPlan.at(at(-1), bookings, POOLS, Map.of()).queues())
                .as("no lead: queues exactly in the window")
                .isEmpty();
    }
}
