package io.gpuaas.booking.placement;

import static io.gpuaas.booking.placement.BruteForceFleet.at;
import static io.gpuaas.booking.placement.FleetPlacementsPropertyTest.H200;
import static io.gpuaas.booking.placement.FleetPlacementsPropertyTest.fleetOf;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.booking.placement.PlacementOutcome.Placed;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;

/**
 * The booking bar's race, as the one writer per pool sees it: a partly booked flexible pool, then 24 requests of one
 * unit each for the same window, decided one after the other. Exactly as many are confirmed as brute force says fit.
 */
class LastUnitsRaceTest {

    private static final List<UnitKind> CONTESTED =
            List.of(UnitKind.mig("1g.18gb"), UnitKind.mig("2g.35gb"), UnitKind.mig("3g.71gb"), UnitKind.whole());

    @RepeatedTest(40)
    void shouldConfirmExactlyTheUnitsThatFitWhen24RequestsRaceForTheLastOnes(RepetitionInfo info) {
        long seed = info.getCurrentRepetition() * 15_485_863L;
        Random random = new Random(seed);
        List<GpuAddress> gpus = fleetOf(2, 2);
        FleetPlacements fleet = new FleetPlacements(H200, gpus);
        BruteForceFleet brute = new BruteForceFleet(H200, gpus);
        for (int i = 0; i < 12; i++) {
            UnitKind kind = UnitKind.mig(
                    H200.profiles().get(random.nextInt(H200.profiles().size())).name());
            int from = random.nextInt(12);
            int to = from + 1 + random.nextInt(8);
            if (fleet.place(new PlacementRequest("pre" + i, kind, 1, at(from), at(to))) instanceof Placed p) {
                brute.add(p.bookingId(), p.units(), from, to);
            }
        }
        UnitKind contested = CONTESTED.get(random.nextInt(CONTESTED.size()));
        int expected = brute.mostUnits(contested, 4, 12);

        int confirmed = 0;
        for (int i = 0; i < 24; i++) {
            PlacementOutcome outcome = fleet.place(new PlacementRequest("race" + i, contested, 1, at(4), at(12)));
            if (outcome instanceof Placed p) {
                confirmed++;
                brute.add(p.bookingId(), p.units(), 4, 12);
            }
        }

        assertThat(confirmed)
                .as("seed %d, %s: confirmed of 24", seed, contested)
                .isEqualTo(expected);
        assertThat(brute.violations(24)).as("seed %d", seed).isEmpty();
        assertThat(fleet.unitsThatFit(contested, at(4), at(12))).isZero();
    }
}
