package io.gpuaas.metrics.ledger;

import static io.gpuaas.metrics.ledger.LedgerRecords.POOLS;
import static io.gpuaas.metrics.ledger.LedgerRecords.confirmed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.booking.PlacedUnit;
import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.events.pool.PoolNode;
import io.gpuaas.events.usage.UsageDaily.Figures;
import io.gpuaas.events.workload.WorkloadEvent;
import io.gpuaas.metrics.ledger.Ledger.DayRow;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The ledger on a flexible pool: weight per booking, device time per resource, admissions on MIG resources. */
class FlexiblePoolLedgerTest {

    private static final Instant T10 = Instant.parse("2026-11-22T10:00:00Z");
    private static final LocalDate DAY = LocalDate.parse("2026-11-22");
    private static final String NODE = "flex-node-1";

    /**
     * The flexible pool comes first, before the shipped static pools: with no MIG profile of its own it must not
     * take a whole GPU of another node.
     */
    private static final Pool FLEX =
            Pool.flexible("h200-flex", "h200-flex", "NVIDIA H200", null, List.of(new PoolNode(NODE, 2)));

    private static final PoolCatalog CATALOG = catalog();

    private final LedgerInputs inputs = new LedgerInputs(CATALOG, 0.05, Duration.ofSeconds(30));

    private static PoolCatalog catalog() {
        List<Pool> pools = new ArrayList<>();
        pools.add(FLEX);
        pools.addAll(POOLS.pools());
        return new PoolCatalog(pools);
    }

    private static Instant at(int minutesAfter10) {
        return T10.plus(Duration.ofMinutes(minutesAfter10));
    }

    /** A confirmed booking of {@code quantity} units of {@code profile} (null: whole GPUs) on GPU 0 of the node. */
    private static Booking flexBooking(String id, String profile, int quantity, Instant start, Instant end) {
        List<PlacedUnit> placement = IntStream.range(0, quantity)
                .mapToObj(i -> profile == null ? PlacedUnit.wholeGpu(NODE, i) : PlacedUnit.mig(NODE, 0, profile, i))
                .toList();
        return new Booking(
                id,
                "team-a",
                "team-a",
                FLEX.id(),
                FLEX.flavor(),
                FLEX.resourceFor(profile),
                quantity,
                start,
                end,
                null,
                BookingState.CONFIRMED,
                "user-team-a",
                start,
                start,
                1,
                placement);
    }

    private Figures figures(String id) {
        return inputs.ledger().bookings(DAY, DAY.plusDays(1), t -> true).stream()
                .filter(r -> r.booking().id().equals(id))
                .findFirst()
                .orElseThrow()
                .figures();
    }

    private static GpuScrape scrape(String node, String uuid, String gi, String profile, Instant time, double util) {
        return new GpuScrape(
                time,
                node,
                "10.0.0.9:9400",
                List.of(new GpuScrape.Device(
                        uuid,
                        0,
                        "NVIDIA H200",
                        gi,
                        profile,
                        "dcgm-exporter-x",
                        "team-a",
                        "worker-" + uuid + gi,
                        "main",
                        util,
                        "GR_ENGINE_ACTIVE",
                        100.0,
                        100.0,
                        300.0)));
    }

    private static WorkloadEvent admitted(String name, String resource, int units, Instant time) {
        WorkloadEvent.Condition admitted = new WorkloadEvent.Condition("Admitted", "True", "Admitted", null, time);
        return new WorkloadEvent.WorkloadObserved(
                "team-a",
                name,
                "uid-" + name,
                "1",
                "gpuaas",
                "gpuaas-team-a",
                null,
                null,
                true,
                admitted,
                List.of(admitted),
                List.of(new WorkloadEvent.PodSet("main", 1, Map.of(resource, Integer.toString(units)))),
                List.of(new WorkloadEvent.PodSetAdmission(
                        "main", 1, Map.of(resource, FLEX.flavor()), Map.of(resource, Integer.toString(units)))),
                null,
                time);
    }

    @Test
    void shouldWeighEachFlexibleBookingByItsOwnProfileAndSumThePoolsFigures() {
        inputs.apply(confirmed(flexBooking("bk-3g", "3g.71gb", 2, T10, at(60))));
        inputs.apply(confirmed(flexBooking("bk-1g", "1g.18gb", 7, T10, at(60))));
        inputs.apply(confirmed(flexBooking("bk-2g", "2g.35gb", 1, T10, at(60))));
        inputs.apply(confirmed(flexBooking("bk-gpu", null, 1, T10, at(30))));

        // as a static pool of each profile weighs it: 3g.71gb 1/2, 1g.18gb 1/7, 2g.35gb 1/3, a whole GPU 1
        assertThat(figures("bk-3g").booked()).isEqualTo(1.0);
        assertThat(figures("bk-1g").booked()).isEqualTo(1.0);
        assertThat(figures("bk-2g").booked()).isEqualTo(0.333333);
        assertThat(figures("bk-gpu").booked()).isEqualTo(0.5);
        // one row for the pool: its bookings' GPU-hours, each weighed by its own profile
        assertThat(inputs.ledger().days(DAY, DAY.plusDays(1), t -> true))
                .extracting(DayRow::pool, r -> r.figures().booked())
                .containsExactly(tuple("h200-flex", 2.833333));
    }

    @Test
    void shouldKeepTheFiguresAndTakeTheNewerVersionWhenABookingIsMoved() {
        Booking booked = flexBooking("bk-3g", "3g.71gb", 1, at(60), at(120));
        inputs.apply(confirmed(booked));
        List<PlacedUnit> elsewhere = List.of(PlacedUnit.mig(NODE, 1, "3g.71gb", 4));
        inputs.apply(new BookingEvent.BookingMoved(
                booked.withPlacement(elsewhere, at(10)), booked.placement(), "bk-other", at(10)));

        Ledger ledger = inputs.ledger();
        assertThat(ledger.bookings(DAY, DAY.plusDays(1), t -> true))
                .singleElement()
                .satisfies(row -> {
                    assertThat(row.booking().version()).isEqualTo(2);
                    assertThat(row.booking().placement()).isEqualTo(elsewhere);
                    // 1 × 1/2 × 1 h, as before the move
                    assertThat(row.figures().booked()).isEqualTo(0.5);
                });
    }

    @Test
    void shouldChargeAFlexibleNodesDevicesToThePoolAndEachSliceToTheBookingsOfItsProfile() {
        // bk-1g starts first, so it would take any device time of the pool first; a 3g slice's time is not its
        inputs.apply(confirmed(flexBooking("bk-1g", "1g.18gb", 1, at(-10), at(60))));
        inputs.apply(confirmed(flexBooking("bk-3g", "3g.71gb", 1, T10, at(60))));
        for (int s = 0; s <= 60; s += 10) {
            inputs.apply(scrape(NODE, "GPU-flex", "1", "3g.71gb", T10.plusSeconds(s), 0.9));
        }

        // 60 s busy of a half GPU = 60 / 3600 / 2 = 0.008333 GPU-h
        assertThat(figures("bk-3g").busy()).isEqualTo(0.008333);
        assertThat(figures("bk-1g").busy()).isZero();
        assertThat(figures("bk-1g").idle()).isZero();
    }

    @Test
    void shouldChargeAWholeGpuOfAFlexibleNodeToItsWholeGpuBookings() {
        inputs.apply(confirmed(flexBooking("bk-gpu", null, 1, T10, at(60))));
        for (int s = 0; s <= 60; s += 10) {
            inputs.apply(scrape(NODE, "GPU-flex", null, null, T10.plusSeconds(s), 0.0));
        }

        // 60 s idle of a whole GPU
        assertThat(figures("bk-gpu").idle()).isEqualTo(0.016667);
    }

    @Test
    void shouldLeaveAWholeGpuOfAnotherNodeToTheStaticPoolWhenAFlexiblePoolOfItsModelComesFirst() {
        inputs.apply(confirmed(flexBooking("bk-gpu", null, 1, T10, at(60))));
        inputs.apply(confirmed(LedgerRecords.booking("bk-static", "team-a", "h200", 1, T10, at(60))));
        for (int s = 0; s <= 60; s += 10) {
            inputs.apply(scrape("static-node", "GPU-static", null, null, T10.plusSeconds(s), 0.9));
        }

        assertThat(figures("bk-static").busy()).isEqualTo(0.016667);
        assertThat(figures("bk-gpu").busy()).isZero();
    }

    @Test
    void shouldCountAWorkloadAdmittedOnAMigResourceUnderTheFlexibleFlavor() {
        inputs.apply(confirmed(flexBooking("bk-3g", "3g.71gb", 2, T10, at(60))));
        inputs.apply(confirmed(flexBooking("bk-1g", "1g.18gb", 1, T10, at(60))));
        inputs.apply("team-a/w", admitted("w", "nvidia.com/mig-3g.71gb", 1, T10));
        inputs.apply(scrape("other", "GPU-z", null, null, at(60), 0.9)); // moves asOf to 11:00

        // 1 × 3g.71gb for 1 h = 0.5 GPU-h, on the booking of that resource only
        assertThat(figures("bk-3g").admitted()).isEqualTo(0.5);
        assertThat(figures("bk-1g").admitted()).isZero();
    }

    @Test
    void shouldOfferEveryResourceOfAFlexiblePoolToTheAdmissions() {
        assertThat(LedgerInputs.gpuResources(CATALOG))
                .contains(
                        "nvidia.com/gpu",
                        "nvidia.com/mig-1g.18gb",
                        "nvidia.com/mig-1g.35gb",
                        "nvidia.com/mig-2g.35gb",
                        "nvidia.com/mig-3g.71gb",
                        "nvidia.com/mig-4g.71gb",
                        "nvidia.com/mig-7g.141gb");
    }
}
