package io.gpuaas.metrics.projection;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.events.pool.PoolNode;
import io.gpuaas.metrics.ledger.LedgerRecords;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BookedUnitsTest {

    private static final Instant T0 = Instant.parse("2026-11-22T12:00:00Z");
    private final BookedUnits booked = new BookedUnits();

    @Test
    void shouldCountOnlyBookingsWhoseWindowHoldsNowWhenAsked() {
        booked.apply("b1", booking("b1", "h200", 2, 0, 3600, BookingState.ACTIVE));
        booked.apply("b2", booking("b2", "h200", 1, 0, 3600, BookingState.CONFIRMED));
        booked.apply("b3", booking("b3", "h200", 4, 7200, 9000, BookingState.CONFIRMED));

        assertThat(booked.activeAt(T0.plusSeconds(60))).containsEntry("team-a", java.util.Map.of("h200", 3));
        assertThat(booked.activeAt(T0.plusSeconds(7300))).containsEntry("team-a", java.util.Map.of("h200", 4));
    }

    @Test
    void shouldDropABookingWhenItIsCancelledOrTombstoned() {
        booked.apply("b1", booking("b1", "h200", 2, 0, 3600, BookingState.ACTIVE));
        booked.apply("b2", booking("b2", "h200-mig-1g.18gb", 7, 0, 3600, BookingState.ACTIVE));
        booked.apply("b1", booking("b1", "h200", 2, 0, 3600, BookingState.CANCELLED));
        booked.apply("b2", null);

        assertThat(booked.activeAt(T0.plusSeconds(60))).isEmpty();
    }

    @Test
    void shouldCountAFlexiblePoolInGpusWeighingEachBookingByItsProfileWhenAsked() {
        Pool flex = Pool.flexible("h200-flex", "h200-flex", "NVIDIA H200", null, List.of(new PoolNode("n1", 4)));
        BookedUnits units = new BookedUnits(new PoolCatalog(List.of(flex, LedgerRecords.pool("h200"))));
        units.apply("b1", booking("b1", "h200-flex", "nvidia.com/mig-3g.71gb", 3, BookingState.ACTIVE));
        units.apply("b2", booking("b2", "h200-flex", "nvidia.com/mig-1g.18gb", 7, BookingState.ACTIVE));
        units.apply("b3", booking("b3", "h200-flex", "nvidia.com/gpu", 1, BookingState.CONFIRMED));
        units.apply("b4", booking("b4", "h200", "nvidia.com/gpu", 2, BookingState.ACTIVE));

        // 3 × 1/2 + 7 × 1/7 + 1 × 1 = 3.5 GPUs of the flexible pool; the static pool in its units
        assertThat(units.bookedAt(T0.plusSeconds(60))).containsEntry("team-a", Map.of("h200-flex", 3.5, "h200", 2.0));
        // the rollup's whole units keep the static pool only: 3 + 7 + 1 units of mixed sizes would mean nothing
        assertThat(units.activeAt(T0.plusSeconds(60))).containsEntry("team-a", Map.of("h200", 2));
    }

    private static Booking booking(String id, String pool, String resource, int units, BookingState state) {
        return new Booking(
                id,
                "team-a",
                "team-a",
                pool,
                pool,
                resource,
                units,
                T0,
                T0.plusSeconds(3600),
                null,
                state,
                "alice",
                T0,
                T0,
                1);
    }

    private static Booking booking(String id, String pool, int units, int from, int to, BookingState state) {
        return new Booking(
                id,
                "team-a",
                "team-a",
                pool,
                pool,
                "nvidia.com/gpu",
                units,
                T0.plusSeconds(from),
                T0.plusSeconds(to),
                null,
                state,
                "alice",
                T0,
                T0,
                1);
    }
}
