package io.gpuaas.quota.model;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingState;
import java.time.Instant;

/** Builds bookings for tests on the default pool catalog. */
public final class Bookings {

    public static final Instant T0 = Instant.parse("2026-11-22T10:00:00Z");

    private Bookings() {}

    public static Booking booking(String id, String tenant, String pool, int quantity, Instant start, Instant end) {
        return booking(id, tenant, tenant, pool, quantity, start, end, BookingState.CONFIRMED);
    }

    public static Booking booking(
            String id,
            String tenant,
            String namespace,
            String pool,
            int quantity,
            Instant start,
            Instant end,
            BookingState state) {
        String resource =
                pool.equals("h200") ? "nvidia.com/gpu" : "nvidia.com/mig-" + pool.substring("h200-mig-".length());
        return new Booking(
                id,
                tenant,
                namespace,
                pool,
                pool,
                resource,
                quantity,
                start,
                end,
                null,
                state,
                "alice",
                start.minusSeconds(3600),
                start.minusSeconds(3600),
                1);
    }

    public static Instant at(long minutes) {
        return T0.plusSeconds(minutes * 60);
    }
}
