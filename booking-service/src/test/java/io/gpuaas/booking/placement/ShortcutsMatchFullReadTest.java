package io.gpuaas.booking.placement;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.geometry.GpuInstanceProfile;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;

/**
 * The shortcuts of the placement rule never change its answer: {@link UnitChooser#best} (which reads only the GPUs
 * the {@link SliceIndex} lets through, stops whole GPUs at the first of the best class, skips all but one idle GPU and
 * GPUs that cannot beat the best so far) and {@link RoomCounter#count} against a read of every GPU with
 * {@link UnitChooser#bestOn}, over random fleets whose windows fall on and off the index's buckets and whose units
 * are held, shortened, extended and taken off.
 */
class ShortcutsMatchFullReadTest {

    private static final long MINUTE = 60_000L;
    private static final GeometryRules RULES = new GeometryRules(FleetPlacementsPropertyTest.H200);

    private record Live(GpuAddress gpu, Held unit, long start, long end) {}

    @RepeatedTest(25)
    void shouldChooseAndCountAsAReadOfEveryGpuWould(RepetitionInfo info) {
        Random random = new Random(7_000L + info.getCurrentRepetition());
        List<GpuAddress> addresses = FleetPlacementsPropertyTest.fleetOf(3, 4);
        FleetGpus gpus = new FleetGpus(RULES, addresses);
        UnitChooser chooser = new UnitChooser(RULES);
        RoomCounter counter = new RoomCounter(chooser);
        List<Live> live = new ArrayList<>();
        for (int op = 0; op < 300; op++) {
            UnitKind kind = randomKind(random);
            long start = randomInstant(random);
            long end = start + (1 + random.nextInt(16)) * 15 * MINUTE + (random.nextInt(4) == 0 ? 7 * MINUTE : 0);
            String id = "b" + op;
            UnitChooser.Candidate expected = fullRead(chooser, gpus, id, kind, start, end);
            UnitChooser.Candidate actual = chooser.best(gpus, id, kind, start, end);
            assertThat(actual)
                    .as("best place for %s over [%d, %d) at op %d", kind, start, end, op)
                    .isEqualTo(expected);
            int limit = 1 + random.nextInt(30);
            assertThat(counter.count(gpus, kind, start, end, limit))
                    .as("units of %s that fit over [%d, %d) up to %d", kind, start, end, limit)
                    .isEqualTo(fullCount(counter, gpus, kind, start, end, limit));
            int pick = random.nextInt(10);
            if (actual != null && pick < 6) {
                gpus.hold(actual.gpu(), actual.unit(), start, end);
                live.add(new Live(actual.gpu(), actual.unit(), start, end));
            } else if (!live.isEmpty() && pick < 8) {
                moveEnd(gpus, live, random);
            } else if (!live.isEmpty()) {
                Live gone = live.remove(random.nextInt(live.size()));
                gpus.unhold(gone.gpu(), gone.unit(), gone.start(), gone.end());
            }
        }
    }

    /** An end-now or an extend of a live unit, to an end on or off the buckets, as the fleet makes them. */
    private static void moveEnd(FleetGpus gpus, List<Live> live, Random random) {
        int i = random.nextInt(live.size());
        Live unit = live.get(i);
        long newEnd = random.nextBoolean()
                ? unit.start() + (1 + random.nextInt((int) ((unit.end() - unit.start()) / MINUTE))) * MINUTE
                : unit.end() + (1 + random.nextInt(120)) * MINUTE;
        if (newEnd > unit.end()
                && gpus.schedule(unit.gpu()).firstConflict(unit.unit(), unit.end(), newEnd, RULES) != null) {
            return;
        }
        gpus.moveEnd(unit.gpu(), unit.unit(), unit.start(), unit.end(), newEnd);
        live.set(i, new Live(unit.gpu(), unit.unit(), unit.start(), newEnd));
    }

    /** The rule read on every GPU, as {@link UnitChooser#best} answered before it had shortcuts. */
    private static UnitChooser.Candidate fullRead(
            UnitChooser chooser, FleetGpus gpus, String id, UnitKind kind, long start, long end) {
        UnitChooser.Candidate best = null;
        for (int g = 0; g < gpus.size(); g++) {
            UnitChooser.Candidate c = chooser.bestOn(gpus.address(g), gpus.schedule(g), id, kind, start, end);
            if (c != null && (best == null || UnitChooser.BEST.compare(c, best) < 0)) {
                best = c;
            }
        }
        return best;
    }

    private static int fullCount(RoomCounter counter, FleetGpus gpus, UnitKind kind, long start, long end, int limit) {
        int total = 0;
        for (int g = 0; g < gpus.size() && total < limit; g++) {
            total += counter.countOn(gpus.address(g), gpus.schedule(g), kind, start, end, limit - total);
        }
        return total;
    }

    private static long randomInstant(Random random) {
        // Mostly on the 15-minute grid (whole buckets), sometimes a few minutes off it.
        long quarter = random.nextInt(48) * 15 * MINUTE;
        return quarter + (random.nextInt(4) == 0 ? (1 + random.nextInt(14)) * MINUTE : 0);
    }

    private static UnitKind randomKind(Random random) {
        List<GpuInstanceProfile> profiles = FleetPlacementsPropertyTest.H200.profiles();
        int pick = random.nextInt(profiles.size() + 2);
        return pick >= profiles.size()
                ? UnitKind.whole()
                : UnitKind.mig(profiles.get(pick).name());
    }
}
