package io.gpuaas.metrics.projection;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingState;
import java.time.Instant;
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
