package io.gpuaas.booking.placement;

import static io.gpuaas.booking.placement.BruteForceFleet.STEP;
import static io.gpuaas.booking.placement.BruteForceFleet.at;
import static io.gpuaas.booking.placement.FleetPlacementsPropertyTest.H200;
import static io.gpuaas.booking.placement.FleetPlacementsPropertyTest.fleetOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuaas.booking.placement.PlacementOutcome.Placed;
import io.gpuaas.booking.placement.PlacementOutcome.Refused;
import io.gpuaas.events.geometry.MigPlacement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The reads the API will serve, the end changes, and the refusals a user can get. */
class FleetQueriesTest {

    private static final UnitKind THREE_G = UnitKind.mig("3g.71gb");
    private static final Duration HOUR = Duration.ofHours(1);

    private final FleetPlacements fleet = new FleetPlacements(H200, fleetOf(1, 1));

    private PlacementOutcome book(String id, UnitKind kind, int quantity, int from, int to) {
        return fleet.place(new PlacementRequest(id, kind, quantity, at(from), at(to)));
    }

    @Test
    void shouldFindTheEarliestStartAfterTheBookingsInTheWayWhenTheGpuIsTaken() {
        book("whole", UnitKind.whole(), 1, 0, 8);
        book("three", THREE_G, 1, 8, 16);

        assertThat(fleet.earliestStart(UnitKind.whole(), 1, HOUR, at(0), at(100)))
                .contains(at(16));
        assertThat(fleet.earliestStart(THREE_G, 1, HOUR, at(0), at(100))).contains(at(8));
        assertThat(fleet.earliestStart(UnitKind.mig("4g.71gb"), 1, HOUR, at(2), at(100)))
                .contains(at(8));
        assertThat(fleet.earliestStart(THREE_G, 2, HOUR, at(0), at(100))).contains(at(16));
        assertThat(fleet.earliestStart(UnitKind.whole(), 1, HOUR, at(0), at(15)))
                .isEmpty();
    }

    @Test
    void shouldRestoreARecordedPlacementExactlyAndRefuseOneWhoseSlicesAreTaken() {
        FleetPlacements recorded = new FleetPlacements(H200, fleetOf(1, 1));
        List<UnitPlacement> units =
                ((Placed) recorded.place(new PlacementRequest("a", THREE_G, 2, at(0), at(4)))).units();

        PlacementOutcome restored = fleet.restore(new PlacementRequest("a", THREE_G, 2, at(0), at(4)), units);
        assertThat(restored).isInstanceOf(Placed.class);
        assertThat(fleet.placementsOf("a")).contains(units);
        assertThat(fleet.layoutsAt(at(1))).isEqualTo(recorded.layoutsAt(at(1)));

        PlacementOutcome clash = fleet.restore(
                new PlacementRequest("b", UnitKind.mig("4g.71gb"), 1, at(2), at(6)),
                List.of(new UnitPlacement(units.getFirst().gpu(), UnitKind.mig("4g.71gb"), 0)));
        assertThat(clash).isInstanceOfSatisfying(Refused.class, r -> {
            assertThat(r.reason()).isEqualTo(PlacementRefusal.NO_ROOM);
            assertThat(r.blockedFrom()).isEqualTo(at(2));
        });
        assertThat(fleet.placementsOf("b")).isEmpty();
        assertThat(fleet.restore(new PlacementRequest("a", THREE_G, 2, at(0), at(4)), units))
                .isInstanceOfSatisfying(
                        Refused.class, r -> assertThat(r.reason()).isEqualTo(PlacementRefusal.BOOKING_EXISTS));
    }

    @Test
    void shouldReportEachGpusLayoutWhenAskedAtAnInstant() {
        FleetPlacements two = new FleetPlacements(H200, fleetOf(1, 2));
        two.place(new PlacementRequest("w", UnitKind.whole(), 1, at(0), at(4)));
        two.place(new PlacementRequest("m", THREE_G, 2, at(2), at(6)));

        assertThat(two.layoutsAt(at(3)).values())
                .containsExactly(
                        new GpuLayout.Whole("w"),
                        new GpuLayout.Mig(List.of(MigPlacement.of("3g.71gb", 0), MigPlacement.of("3g.71gb", 4))));
        assertThat(two.layoutsAt(at(6)).values()).containsOnly(new GpuLayout.Idle());
    }

    @Test
    void shouldExtendInPlaceWhenTheSlicesStayFreeAndRefuseWhenTheyAreTaken() {
        UnitPlacement mine = ((Placed) book("mine", THREE_G, 1, 0, 4)).units().getFirst();
        book("later", UnitKind.mig("4g.71gb"), 1, 8, 12);
        book("blocker", THREE_G, 1, 6, 10);

        assertThat(fleet.extend("mine", at(6))).isEqualTo(new Placed("mine", List.of(mine)));
        assertThat(fleet.extend("mine", at(9))).isInstanceOfSatisfying(Refused.class, r -> {
            assertThat(r.reason()).isEqualTo(PlacementRefusal.NO_ROOM);
            assertThat(r.blockedFrom()).isEqualTo(at(6));
        });
        assertThat(fleet.layoutsAt(at(6)).values())
                .containsExactly(new GpuLayout.Mig(List.of(MigPlacement.of("3g.71gb", 4))));
    }

    @Test
    void shouldFreeTheRestOfTheWindowWhenABookingEndsNow() {
        book("a", UnitKind.whole(), 1, 0, 8);

        assertThat(fleet.shorten("a", at(2))).isInstanceOf(Placed.class);
        assertThat(fleet.unitsThatFit(UnitKind.whole(), at(2), at(8))).isEqualTo(1);
        assertThat(fleet.shorten("a", at(2)))
                .extracting(o -> ((Refused) o).reason())
                .isEqualTo(PlacementRefusal.INVALID_END);
        assertThat(fleet.release("a")).isInstanceOf(Placed.class);
        assertThat(fleet.release("a")).extracting(o -> ((Refused) o).reason()).isEqualTo(PlacementRefusal.NOT_FOUND);
    }

    @Test
    void shouldSayFragmentedWhenEveryInstantHasRoomButNoPlaceLastsTheWindow() {
        book("four", UnitKind.mig("4g.71gb"), 1, 0, 4);
        UnitPlacement three = ((Placed) book("three", THREE_G, 1, 4, 8)).units().getFirst();

        PlacementOutcome across = book("across", THREE_G, 1, 0, 8);

        assertThat(three.startSlice()).isEqualTo(4);
        assertThat(across).extracting(o -> ((Refused) o).reason()).isEqualTo(PlacementRefusal.FRAGMENTED);
        assertThat(fleet.unitsThatFit(THREE_G, at(0), at(4))).isEqualTo(1);
        assertThat(fleet.unitsThatFit(THREE_G, at(4), at(8))).isEqualTo(1);
    }

    @Test
    void shouldRefuseUnknownProfilesTakenIdsAndInvalidRequests() {
        book("a", THREE_G, 1, 0, 4);

        assertThat(book("a", THREE_G, 1, 4, 8))
                .extracting(o -> ((Refused) o).reason())
                .isEqualTo(PlacementRefusal.BOOKING_EXISTS);
        assertThat(book("b", UnitKind.mig("5g.90gb"), 1, 0, 4))
                .extracting(o -> ((Refused) o).reason())
                .isEqualTo(PlacementRefusal.UNKNOWN_PROFILE);
        assertThatThrownBy(() -> new PlacementRequest("c", THREE_G, 0, at(0), at(1)))
                .hasMessageContaining("quantity");
        assertThatThrownBy(() -> new PlacementRequest("c", THREE_G, 1, at(1), at(1)))
                .hasMessageContaining("not before");
        assertThatThrownBy(() -> new UnitPlacement(new GpuAddress("n", 0), UnitKind.whole(), 4))
                .hasMessageContaining("cannot start");
        assertThatThrownBy(() -> new GpuAddress(" ", 0)).hasMessageContaining("node");
        assertThat(at(1)).isEqualTo(at(0).plus(STEP));
    }
}
