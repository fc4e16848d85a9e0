package io.gpuaas.booking.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.pool.PoolKeep;
import io.gpuaas.events.reclaim.ReclaimEvent.ReclaimKept;
import io.gpuaas.events.reclaim.WorkloadRef;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A booking's keep answers against its pool's bounds: per answer, and per booking and UTC day over its workloads. */
class KeepAllowanceTest {

    private static final Instant START = Instant.parse("2026-11-25T06:00:00Z");
    private static final Instant NOW = START.plus(Duration.ofHours(4));
    private static final Booking BOOKING = new Booking(
            "bk-1",
            "team-a",
            "team-a",
            "h200",
            "h200",
            "nvidia.com/gpu",
            2,
            START,
            START.plus(Duration.ofDays(2)),
            null,
            BookingState.ACTIVE,
            "alice",
            START,
            START,
            2,
            null);
    private static final PoolKeep POOL = new PoolKeep(8, 12);

    private final List<ReclaimKept> granted = new ArrayList<>();

    private void kept(String namespace, String workload, int hours, Instant at) {
        granted.add(new ReclaimKept(
                new WorkloadRef(namespace, "RayCluster", workload),
                "team-a",
                "keep-" + granted.size(),
                hours,
                at.plus(Duration.ofHours(hours)),
                1,
                hours,
                24 - hours,
                "alice",
                at));
    }

    @Test
    void shouldRefuseASecondWorkloadOfTheSameBookingBeyondWhatTheBookingHasLeftToday() {
        kept("team-a", "ray-1", 8, NOW.minus(Duration.ofHours(1)));

        assertThat(KeepAllowance.check(BOOKING, POOL, granted, 8, NOW))
                .as("ray-2 of the same booking: 4 of the booking's 12 hours are left, whatever ray-2 had")
                .contains(new KeepAllowance.Beyond("per-booking-day", 12, 4));
        assertThat(KeepAllowance.check(BOOKING, POOL, granted, 4, NOW)).isEmpty();
        kept("team-a", "ray-2", 4, NOW);
        assertThat(KeepAllowance.check(BOOKING, POOL, granted, 1, NOW))
                .contains(new KeepAllowance.Beyond("per-booking-day", 12, 0));
    }

    @Test
    void shouldRefuseMoreThanThePoolsHoursInOneAnswer() {
        assertThat(KeepAllowance.check(BOOKING, POOL, granted, 9, NOW))
                .contains(new KeepAllowance.Beyond("per-answer", 8, 8));
        assertThat(KeepAllowance.check(BOOKING, PoolKeep.DEFAULT, granted, 24, NOW))
                .as("the default: 24 h per answer and per booking and day")
                .isEmpty();
    }

    @Test
    void shouldCountOnlyTheBookingsNamespaceOnTheSameUtcDayWithinItsWindow() {
        kept("team-b", "ray-1", 8, NOW); // another namespace
        kept("team-a", "ray-1", 8, START.minus(Duration.ofHours(1))); // before the booking began
        kept("team-a", "ray-1", 8, NOW.minus(Duration.ofDays(1))); // the day before (UTC)

        assertThat(KeepAllowance.keptOn(BOOKING, granted, NOW)).isZero();
        assertThat(KeepAllowance.check(BOOKING, POOL, granted, 8, NOW)).isEmpty();
        kept("team-a", "ray-1", 8, NOW);
        assertThat(KeepAllowance.keptOn(BOOKING, granted, NOW)).isEqualTo(8);
        assertThat(KeepAllowance.keptOn(BOOKING, granted, NOW.plus(Duration.ofDays(1))))
                .as("a new UTC day starts from nothing")
                .isZero();
    }
}
