package io.gpuaas.booking.placement;

import static io.gpuaas.booking.placement.BruteForceFleet.at;
import static io.gpuaas.booking.placement.FleetPlacementsPropertyTest.H200;
import static io.gpuaas.booking.placement.FleetPlacementsPropertyTest.fleetOf;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.booking.placement.PlacementOutcome.Placed;
import io.gpuaas.booking.placement.PlacementOutcome.Refused;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Making room by moving one booking that has not started yet. */
class RoomMakerTest {

    private static final UnitKind THREE_G = UnitKind.mig("3g.71gb");

    private final FleetPlacements fleet = new FleetPlacements(H200, fleetOf(1, 1));
    private final RoomMaker roomMaker = new RoomMaker(fleet);

    private void fragment() {
        fleet.place(new PlacementRequest("four", UnitKind.mig("4g.71gb"), 1, at(0), at(4)));
        fleet.place(new PlacementRequest("three", THREE_G, 1, at(4), at(8)));
    }

    @Test
    void shouldMoveABookingBeforeItsStartWhenThatIsWhatTheNewOneNeeds() {
        fragment();

        RoomMaker.Plan plan = roomMaker.place(new PlacementRequest("across", THREE_G, 1, at(0), at(8)), at(0));

        assertThat(plan.outcome()).isInstanceOf(Placed.class);
        assertThat(((Placed) plan.outcome()).units())
                .extracting(UnitPlacement::startSlice)
                .containsExactly(4);
        assertThat(plan.moves()).singleElement().satisfies(m -> {
            assertThat(m.bookingId()).isEqualTo("three");
            assertThat(m.from()).extracting(UnitPlacement::startSlice).containsExactly(4);
            assertThat(m.to()).extracting(UnitPlacement::startSlice).containsExactly(0);
        });
        BruteForceFleet brute = new BruteForceFleet(H200, fleet.gpus());
        for (String id : List.of("four", "three", "across")) {
            PlacementRequest r = fleet.requestOf(id).orElseThrow();
            int from = (int) java.time.Duration.between(at(0), r.start()).toMinutes() / 15;
            int to = (int) java.time.Duration.between(at(0), r.end()).toMinutes() / 15;
            brute.add(id, fleet.placementsOf(id).orElseThrow(), from, to);
        }
        assertThat(brute.violations(12)).isEmpty();
    }

    @Test
    void shouldLeaveEverythingAsItWasWhenTheOnlyBookingInTheWayHasStarted() {
        fragment();
        var before = List.of(fleet.layoutsAt(at(1)), fleet.layoutsAt(at(5)));

        RoomMaker.Plan plan = roomMaker.place(new PlacementRequest("across", THREE_G, 1, at(0), at(8)), at(4));

        assertThat(plan.outcome()).extracting(o -> ((Refused) o).reason()).isEqualTo(PlacementRefusal.FRAGMENTED);
        assertThat(plan.moves()).isEmpty();
        assertThat(List.of(fleet.layoutsAt(at(1)), fleet.layoutsAt(at(5)))).isEqualTo(before);
        assertThat(fleet.placementsOf("across")).isEmpty();
    }

    @Test
    void shouldCallItNoMoveWhenTheTakenBookingLandsBackOnTheSameUnitsInAnotherOrder() {
        GpuAddress gpu0 = new GpuAddress("node-0", 0);
        GpuAddress gpu1 = new GpuAddress("node-0", 1);
        UnitPlacement a = new UnitPlacement(gpu0, THREE_G, 4);
        UnitPlacement b = new UnitPlacement(gpu1, THREE_G, 0);

        assertThat(RoomMaker.sameUnits(List.of(a, b), List.of(b, a))).isTrue();
        assertThat(RoomMaker.sameUnits(List.of(a, b), List.of(a, new UnitPlacement(gpu1, THREE_G, 4))))
                .isFalse();
        assertThat(RoomMaker.sameUnits(List.of(a), List.of(a, b))).isFalse();
    }
}
