package io.gpuaas.booking.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.booking.http.FleetAnswers.GpuState;
import io.gpuaas.booking.http.FleetAnswers.Instance;
import io.gpuaas.booking.http.FleetAnswers.LayoutChange;
import io.gpuaas.booking.placement.UnitKind;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.booking.PlacedUnit;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolNode;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The read side's copy of a flexible pool, rebuilt from booking states as the bookings topic carries them. */
class FleetReplicaTest {

    static final Pool FLEX = Pool.flexible(
            "h200-flex",
            "h200-flex",
            "NVIDIA H200",
            null,
            List.of(new PoolNode("node-a", 1), new PoolNode("node-b", 1)));
    private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
    private static final UnitKind ONE_G = UnitKind.mig("1g.18gb");
    private static final UnitKind THREE_G = UnitKind.mig("3g.71gb");

    private final FleetReplica fleet = new FleetReplica(FLEX);

    static Instant hour(int h) {
        return T0.plus(Duration.ofHours(h));
    }

    static Booking booking(
            String id,
            String tenant,
            String profile,
            int from,
            int to,
            BookingState state,
            long version,
            PlacedUnit... units) {
        return new Booking(
                id,
                tenant,
                tenant,
                FLEX.id(),
                FLEX.flavor(),
                FLEX.resourceFor(profile),
                units.length,
                hour(from),
                hour(to),
                null,
                state,
                "someone",
                T0,
                T0,
                version,
                List.of(units));
    }

    private int fit(UnitKind kind, int from, int to) {
        return fleet.unitsThatFit(kind, hour(from), hour(to));
    }

    @Test
    void shouldLeaveFewer1gSlicesWhenA3gIsBookedOnTheSameGpu() {
        assertThat(fit(ONE_G, 0, 1)).isEqualTo(14);

        fleet.apply(booking(
                "b3", "team-a", "3g.71gb", 0, 4, BookingState.CONFIRMED, 1, PlacedUnit.mig("node-a", 0, "3g.71gb", 4)));

        assertThat(fit(ONE_G, 0, 1)).isEqualTo(4 + 7);
        assertThat(fit(THREE_G, 0, 1)).isEqualTo(3);
        assertThat(fit(UnitKind.whole(), 0, 1)).isEqualTo(1);
        assertThat(fit(ONE_G, 4, 5)).isEqualTo(14);
    }

    @Test
    void shouldFreeTheUnitsWhenTheBookingIsCancelled() {
        fleet.apply(booking("w", "team-a", null, 0, 4, BookingState.CONFIRMED, 1, PlacedUnit.wholeGpu("node-a", 0)));
        assertThat(fit(UnitKind.whole(), 0, 4)).isEqualTo(1);

        fleet.apply(booking("w", "team-a", null, 0, 4, BookingState.CANCELLED, 2, PlacedUnit.wholeGpu("node-a", 0)));

        assertThat(fit(UnitKind.whole(), 0, 4)).isEqualTo(2);
        assertThat(fleet.placedDuring(hour(0), hour(4))).isEmpty();
    }

    @Test
    void shouldIgnoreAnOlderVersionWhenANewerOneWasApplied() {
        fleet.apply(booking("w", "team-a", null, 0, 4, BookingState.CANCELLED, 2, PlacedUnit.wholeGpu("node-a", 0)));
        fleet.apply(booking("w", "team-a", null, 0, 4, BookingState.CONFIRMED, 1, PlacedUnit.wholeGpu("node-a", 0)));

        assertThat(fit(UnitKind.whole(), 0, 4)).isEqualTo(2);
    }

    @Test
    void shouldPlaceBothWhenAMovedBookingArrivesAfterTheBookingItMadeRoomFor() {
        Booking before = booking(
                "moved",
                "team-a",
                "3g.71gb",
                2,
                6,
                BookingState.CONFIRMED,
                1,
                PlacedUnit.mig("node-a", 0, "3g.71gb", 4));
        Booking after = booking(
                "moved",
                "team-a",
                "3g.71gb",
                2,
                6,
                BookingState.CONFIRMED,
                2,
                PlacedUnit.mig("node-b", 0, "3g.71gb", 4));
        Booking whole =
                booking("whole", "team-b", null, 0, 8, BookingState.CONFIRMED, 1, PlacedUnit.wholeGpu("node-a", 0));
        fleet.apply(before);

        fleet.apply(whole);
        assertThat(fleet.unplaced()).containsExactly("whole");

        fleet.apply(after);
        assertThat(fleet.unplaced()).isEmpty();
        assertThat(fleet.placedDuring(hour(0), hour(8))).extracting(Booking::id).containsExactly("whole", "moved");
        assertThat(fit(UnitKind.whole(), 2, 6)).isZero();
        assertThat(fit(ONE_G, 2, 6)).isEqualTo(4);
    }

    @Test
    void shouldRebuildTheSamePlacementsWhateverOrderTheStatesComeIn() {
        List<Booking> states = List.of(
                booking(
                        "a",
                        "team-a",
                        "3g.71gb",
                        0,
                        4,
                        BookingState.ACTIVE,
                        2,
                        PlacedUnit.mig("node-a", 0, "3g.71gb", 4)),
                booking(
                        "b",
                        "team-b",
                        "1g.18gb",
                        1,
                        3,
                        BookingState.CONFIRMED,
                        1,
                        PlacedUnit.mig("node-a", 0, "1g.18gb", 0),
                        PlacedUnit.mig("node-a", 0, "1g.18gb", 1)),
                booking("c", "team-a", null, 0, 2, BookingState.COMPLETED, 3, PlacedUnit.wholeGpu("node-b", 0)));
        FleetReplica reversed = new FleetReplica(FLEX);

        fleet.applyAll(states);
        reversed.applyAll(states.reversed());

        assertThat(FleetReports.layouts(reversed, hour(0), hour(6)))
                .isEqualTo(FleetReports.layouts(fleet, hour(0), hour(6)));
        assertThat(fleet.placedDuring(hour(0), hour(6))).extracting(Booking::id).containsExactly("a", "b");
    }

    @Test
    void shouldNameTheBookingHoldingEachInstanceAtEveryLayoutChange() {
        fleet.apply(booking(
                "a", "team-a", "3g.71gb", 0, 4, BookingState.ACTIVE, 1, PlacedUnit.mig("node-a", 0, "3g.71gb", 4)));
        fleet.apply(booking(
                "b", "team-b", "1g.18gb", 1, 3, BookingState.CONFIRMED, 1, PlacedUnit.mig("node-a", 0, "1g.18gb", 0)));
        fleet.apply(booking("w", "team-b", null, 2, 5, BookingState.CONFIRMED, 1, PlacedUnit.wholeGpu("node-b", 0)));

        List<LayoutChange> changes =
                FleetReports.layouts(fleet, hour(0), hour(6)).changes();

        assertThat(changes)
                .extracting(LayoutChange::at)
                .containsExactly(hour(0), hour(1), hour(2), hour(3), hour(4), hour(5));
        GpuState nodeA = changes.get(1).gpus().getFirst();
        assertThat(nodeA.mode()).isEqualTo("mig");
        assertThat(nodeA.instances()).containsExactly(new Instance("1g.18gb", 0, "b"), new Instance("3g.71gb", 4, "a"));
        assertThat(changes.get(2).gpus().get(1)).isEqualTo(new GpuState("node-b", 0, "whole", "w", List.of()));
        assertThat(changes.get(5).gpus()).extracting(GpuState::mode).containsOnly("idle");
    }

    @Test
    void shouldFindTheEarliestStartAfterTheBookingsHoldingEveryGpu() {
        fleet.apply(booking("w1", "team-a", null, 0, 3, BookingState.CONFIRMED, 1, PlacedUnit.wholeGpu("node-a", 0)));
        fleet.apply(booking("w2", "team-b", null, 0, 5, BookingState.CONFIRMED, 1, PlacedUnit.wholeGpu("node-b", 0)));

        assertThat(fleet.earliestStart(UnitKind.whole(), 1, Duration.ofHours(2), hour(0), hour(48)))
                .contains(hour(3));
        assertThat(fleet.earliestStart(UnitKind.whole(), 2, Duration.ofHours(2), hour(0), hour(48)))
                .contains(hour(5));
        assertThat(fleet.earliestStart(ONE_G, 7, Duration.ofHours(1), hour(0), hour(48)))
                .contains(hour(3));
        assertThat(fleet.earliestStart(ONE_G, 8, Duration.ofHours(1), hour(0), hour(48)))
                .contains(hour(5));
    }
}
