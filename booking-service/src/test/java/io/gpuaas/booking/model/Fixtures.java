package io.gpuaas.booking.model;

import io.gpuaas.events.booking.BookingCommand.CancelBooking;
import io.gpuaas.events.booking.BookingCommand.ChangeBooking;
import io.gpuaas.events.booking.BookingCommand.CreateBooking;
import io.gpuaas.events.booking.BookingCommand.ReleaseBooking;
import io.gpuaas.events.booking.Caller;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** Pools, callers and commands shared by the decision tests. */
final class Fixtures {

    static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");
    static final Caller TEAM_A = new Caller("alice", "team-a", false);
    static final Caller TEAM_B = new Caller("bob", "team-b", false);
    static final Caller ADMIN = new Caller("root", "platform", true);
    static final PoolCatalog POOLS = new PoolCatalog(List.of(
            new Pool("h200", "h200", "nvidia.com/gpu", 8, "NVIDIA H200", null),
            new Pool("h200-mig-2g.35gb", "h200-mig-2g.35gb", "nvidia.com/mig-2g.35gb", 9, "NVIDIA H200", "2g.35gb")));

    private Fixtures() {}

    static Instant h(int hours) {
        return NOW.plus(Duration.ofHours(hours));
    }

    static CreateBooking create(Caller caller, String key, int quantity, Instant start, Instant end) {
        return new CreateBooking(
                UUID.randomUUID().toString(),
                key,
                caller,
                "h200",
                UUID.randomUUID().toString(),
                caller.tenant(),
                quantity,
                start,
                end,
                null,
                NOW);
    }

    /** Book now ({@code start} absent): {@code end} or {@code duration}, the other null. */
    static CreateBooking bookNow(Caller caller, String key, int quantity, Instant end, Duration duration) {
        return new CreateBooking(
                UUID.randomUUID().toString(),
                key,
                caller,
                "h200",
                UUID.randomUUID().toString(),
                caller.tenant(),
                quantity,
                null,
                end,
                null,
                NOW,
                null,
                duration);
    }

    /** Extend from now: a change with {@code duration} instead of an end, keeping {@code start}. */
    static ChangeBooking extendFromNow(Caller caller, String bookingId, Instant start, Duration duration) {
        return new ChangeBooking(
                UUID.randomUUID().toString(), null, caller, "h200", bookingId, start, null, NOW, null, duration);
    }

    static CancelBooking cancel(Caller caller, String bookingId) {
        return new CancelBooking(UUID.randomUUID().toString(), null, caller, "h200", bookingId, NOW);
    }

    static ReleaseBooking release(Caller caller, String bookingId, ReleaseBooking.Reason reason, String key) {
        return new ReleaseBooking(UUID.randomUUID().toString(), key, caller, "h200", bookingId, reason, NOW, null);
    }

    static ChangeBooking change(Caller caller, String bookingId, Instant start, Instant end) {
        return new ChangeBooking(UUID.randomUUID().toString(), null, caller, "h200", bookingId, start, end, NOW);
    }
}
