package io.gpuaas.booking.placement;

import static io.gpuaas.booking.placement.BruteForceFleet.at;
import static io.gpuaas.booking.placement.FleetPlacementsPropertyTest.H200;
import static io.gpuaas.booking.placement.FleetPlacementsPropertyTest.fleetOf;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.booking.placement.PlacementOutcome.Placed;
import io.gpuaas.booking.placement.PlacementOutcome.Refused;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Where the rule puts a unit, and what that leaves for the next booking. */
class PackingRuleTest {

    private static final UnitKind ONE_G = UnitKind.mig("1g.18gb");
    private static final UnitKind THREE_G = UnitKind.mig("3g.71gb");
    private static final UnitKind FOUR_G = UnitKind.mig("4g.71gb");

    private static PlacementOutcome book(FleetPlacements fleet, String id, UnitKind kind, int from, int to) {
        return fleet.place(new PlacementRequest(id, kind, 1, at(from), at(to)));
    }

    private static UnitPlacement only(PlacementOutcome outcome) {
        assertThat(outcome).isInstanceOf(Placed.class);
        return ((Placed) outcome).units().getFirst();
    }

    @Test
    void shouldLeaveFour1gWhenA3gTakesSlicesFourToSevenOfAnEmptyH200() {
        FleetPlacements fleet = new FleetPlacements(H200, fleetOf(1, 1));
        assertThat(fleet.unitsThatFit(ONE_G, at(0), at(4))).isEqualTo(7);

        UnitPlacement threeG = only(book(fleet, "a", THREE_G, 0, 4));

        // 3g@4 holds slices 4-7 and 3 compute slices: 1g fits at 0..3 and the 4 compute left. At 0 it would leave 3.
        assertThat(threeG.startSlice()).isEqualTo(4);
        assertThat(fleet.unitsThatFit(ONE_G, at(0), at(4))).isEqualTo(4);
        assertThat(fleet.unitsThatFit(FOUR_G, at(0), at(4))).isEqualTo(1);
        BruteForceFleet brute = new BruteForceFleet(H200, fleet.gpus());
        brute.add("a", List.of(threeG), 0, 4);
        assertThat(brute.mostUnits(ONE_G, 0, 4)).isEqualTo(4);
    }

    @Test
    void shouldPutTheSecond3gOnTheSameGpuWhenAnEmptyGpuIsFree() {
        FleetPlacements fleet = new FleetPlacements(H200, fleetOf(2, 2));

        UnitPlacement first = only(book(fleet, "a", THREE_G, 0, 8));
        UnitPlacement second = only(book(fleet, "b", THREE_G, 2, 6));

        assertThat(second.gpu()).isEqualTo(first.gpu());
        assertThat(List.of(first.startSlice(), second.startSlice())).containsExactly(4, 0);
        assertThat(fleet.unitsThatFit(UnitKind.whole(), at(0), at(8))).isEqualTo(3);
    }

    @Test
    void shouldFill1gFromTheHighestFreeStartDownWhenTheGpuIsEmpty() {
        FleetPlacements fleet = new FleetPlacements(H200, fleetOf(1, 2));

        List<Integer> starts = java.util.stream.IntStream.range(0, 7)
                .mapToObj(i -> only(book(fleet, "u" + i, ONE_G, 0, 4)))
                .peek(u -> assertThat(u.gpu()).isEqualTo(new GpuAddress("node-0", 0)))
                .map(UnitPlacement::startSlice)
                .toList();

        assertThat(starts).containsExactly(6, 5, 4, 3, 2, 1, 0);
    }

    @Test
    void shouldKeepEmptyGpusForWholeGpuBookingsWhenMigUnitsCome() {
        FleetPlacements fleet = new FleetPlacements(H200, fleetOf(1, 2));
        only(book(fleet, "mig-1", ONE_G, 0, 4));
        only(book(fleet, "mig-2", UnitKind.mig("2g.35gb"), 2, 6));

        UnitPlacement whole = only(book(fleet, "whole", UnitKind.whole(), 0, 8));
        PlacementOutcome second = book(fleet, "whole-2", UnitKind.whole(), 5, 8);

        assertThat(whole.gpu()).isEqualTo(new GpuAddress("node-0", 1));
        assertThat(second).isInstanceOfSatisfying(Refused.class, r -> {
            assertThat(r.reason()).isEqualTo(PlacementRefusal.NO_ROOM);
            assertThat(r.blockedFrom()).isEqualTo(at(5));
            assertThat(r.blockedUntil()).isEqualTo(at(6));
        });
    }

    @Test
    void shouldReuseTheStartTheProfileHadJustBeforeWhenTheGpuIsOtherwiseEmpty() {
        FleetPlacements fleet = new FleetPlacements(H200, fleetOf(1, 1));
        only(book(fleet, "x", THREE_G, 0, 4));
        UnitPlacement low = only(book(fleet, "y", THREE_G, 0, 4));
        fleet.release("x");

        // Alone, a 3g on an empty stretch would take 4 (keeps 4g@0 possible); 0 keeps the GPU's layout unchanged.
        UnitPlacement next = only(book(fleet, "z", THREE_G, 4, 8));

        assertThat(low.startSlice()).isZero();
        assertThat(next.startSlice()).isZero();
        assertThat(fleet.layoutsAt(at(4)).values())
                .containsExactly(new GpuLayout.Mig(List.of(io.gpuaas.events.geometry.MigPlacement.of("3g.71gb", 0))));
    }
}
