package io.gpuaas.booking.placement;

import static io.gpuaas.booking.placement.BruteForceFleet.at;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.booking.placement.PlacementOutcome.Placed;
import io.gpuaas.booking.placement.PlacementOutcome.Refused;
import io.gpuaas.events.geometry.GpuGeometry;
import io.gpuaas.events.geometry.GpuGeometryCatalog;
import io.gpuaas.events.geometry.GpuInstanceProfile;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;

/**
 * Random streams of bookings (every H200 profile and whole GPUs, 1–3 units, windows on a 15-minute grid), cancels,
 * end-nows and extends on 2 nodes × 2–4 GPUs, each checked against {@link BruteForceFleet} after every operation.
 */
class FleetPlacementsPropertyTest {

    static final GpuGeometry H200 =
            GpuGeometryCatalog.shipped().forModel("NVIDIA H200").orElseThrow();
    private static final int RUNS = 30;
    private static final int OPERATIONS = 200;
    private static final int HORIZON = 56;

    private record Window(int from, int to) {}

    @RepeatedTest(RUNS)
    void shouldKeepEveryInstantValidAndRefuseOnlyWhatCannotFitWhenBookingsComeAndGo(RepetitionInfo info) {
        long seed = info.getCurrentRepetition() * 104_729L;
        try {
            new Run(seed, false).play();
        } catch (AssertionError e) {
            throw new AssertionError("seed " + seed + ": " + e.getMessage(), e);
        }
    }

    @RepeatedTest(5)
    void shouldGiveTheSamePlacementsWhenTheSameOperationsAreReplayed(RepetitionInfo info) {
        long seed = info.getCurrentRepetition() * 7_919L;
        List<PlacementOutcome> first = new Run(seed, false).play();
        List<PlacementOutcome> replay = new Run(seed, true).play();

        assertThat(replay).as("seed %d", seed).isEqualTo(first);
        assertThat(first).as("seed %d places something", seed).anyMatch(Placed.class::isInstance);
    }

    @RepeatedTest(5)
    void shouldMakeRoomByMovingBookingsWhenRefusalsAreRetriedWithMoves(RepetitionInfo info) {
        long seed = info.getCurrentRepetition() * 104_729L;
        Run run = new Run(seed, false);
        run.play();

        assertThat(run.moved).as("seed %d: placements that needed a move", seed).isPositive();
    }

    static List<GpuAddress> fleetOf(int nodes, int perNode) {
        List<GpuAddress> gpus = new ArrayList<>();
        for (int n = 0; n < nodes; n++) {
            for (int i = 0; i < perNode; i++) {
                gpus.add(new GpuAddress("node-" + n, i));
            }
        }
        return gpus;
    }

    /** One random stream; {@code reversedGpus} hands the fleet its GPUs in the opposite order. */
    private static final class Run {
        private final Random random;
        private final FleetPlacements fleet;
        private final BruteForceFleet brute;
        private final TreeMap<String, Window> live = new TreeMap<>();
        private final List<PlacementOutcome> log = new ArrayList<>();
        private int moved;

        Run(long seed, boolean reversedGpus) {
            random = new Random(seed);
            List<GpuAddress> gpus = fleetOf(2, 2 + random.nextInt(3));
            List<GpuAddress> given = new ArrayList<>(gpus);
            if (reversedGpus) {
                given = given.reversed();
            }
            fleet = new FleetPlacements(H200, given);
            brute = new BruteForceFleet(H200, gpus);
        }

        List<PlacementOutcome> play() {
            for (int op = 0; op < OPERATIONS; op++) {
                int pick = live.isEmpty() ? 0 : random.nextInt(20);
                if (pick < 11) {
                    place("b" + op);
                } else if (pick < 14) {
                    cancel();
                } else if (pick < 16) {
                    shorten();
                } else {
                    extend();
                }
                assertThat(brute.violations(HORIZON))
                        .as("after operation %d", op)
                        .isEmpty();
                for (int step = 0; step < HORIZON; step++) {
                    assertThat(fleet.layoutsAt(at(step)))
                            .as("layouts at step %d after operation %d", step, op)
                            .isEqualTo(brute.layoutsAt(step));
                }
            }
            return log;
        }

        private void place(String id) {
            UnitKind kind = randomKind();
            int quantity = random.nextInt(10) < 7 ? 1 : 2 + random.nextInt(2);
            int from = random.nextInt(40);
            int to = from + 1 + random.nextInt(12);
            boolean singleFits = brute.someSingleFits(kind, from, to);
            PlacementOutcome outcome = fleet.place(new PlacementRequest(id, kind, quantity, at(from), at(to)));
            log.add(outcome);
            switch (outcome) {
                case Placed placed -> {
                    assertThat(placed.units()).hasSize(quantity).allMatch(u -> u.kind()
                            .equals(kind));
                    brute.add(id, placed.units(), from, to);
                    live.put(id, new Window(from, to));
                }
                case Refused refused -> {
                    assertThat(refused.reason()).isIn(PlacementRefusal.NO_ROOM, PlacementRefusal.FRAGMENTED);
                    if (random.nextBoolean()) {
                        withMove(new PlacementRequest(id, kind, quantity, at(from), at(to)), random.nextInt(from + 1));
                    }
                    if (quantity == 1) {
                        assertThat(singleFits)
                                .as(
                                        "%s [%d, %d) refused (%s) though brute force finds a place",
                                        kind, from, to, refused)
                                .isFalse();
                    }
                    if (refused.reason() == PlacementRefusal.NO_ROOM) {
                        assertThat(refused.blockedFrom()).isBetween(at(from), at(to));
                        assertThat(refused.blockedUntil())
                                .isAfter(refused.blockedFrom())
                                .isBeforeOrEqualTo(at(to));
                    }
                }
            }
        }

        /** The refused request again through {@link RoomMaker}, {@code now} at step {@code nowStep}. */
        private void withMove(PlacementRequest request, int nowStep) {
            RoomMaker.Plan plan = new RoomMaker(fleet).place(request, at(nowStep));
            log.add(plan.outcome());
            if (!(plan.outcome() instanceof Placed placed)) {
                assertThat(plan.moves()).isEmpty();
                return;
            }
            assertThat(plan.moves()).hasSize(1);
            for (RoomMaker.Move move : plan.moves()) {
                Window w = live.get(move.bookingId());
                assertThat(at(w.from())).as("moved %s", move).isAfter(at(nowStep));
                assertThat(move.to())
                        .hasSameSizeAs(move.from())
                        .isEqualTo(fleet.placementsOf(move.bookingId()).orElseThrow());
                brute.remove(move.bookingId());
                brute.add(move.bookingId(), move.to(), w.from(), w.to());
            }
            brute.add(request.bookingId(), placed.units(), (int) stepOf(request.start()), (int) stepOf(request.end()));
            live.put(request.bookingId(), new Window((int) stepOf(request.start()), (int) stepOf(request.end())));
            moved++;
        }

        private static long stepOf(java.time.Instant t) {
            return java.time.Duration.between(BruteForceFleet.T0, t).dividedBy(BruteForceFleet.STEP);
        }

        private void cancel() {
            String id = anyLive();
            PlacementOutcome outcome = fleet.release(id);
            log.add(outcome);
            assertThat(outcome).isInstanceOf(Placed.class);
            brute.remove(id);
            live.remove(id);
        }

        private void shorten() {
            String id = anyLive();
            Window w = live.get(id);
            if (w.to() - w.from() < 2) {
                return;
            }
            int newTo = w.from() + 1 + random.nextInt(w.to() - w.from() - 1);
            List<UnitPlacement> before = fleet.placementsOf(id).orElseThrow();
            PlacementOutcome outcome = fleet.shorten(id, at(newTo));
            log.add(outcome);
            assertThat(outcome).isEqualTo(new Placed(id, before));
            brute.remove(id);
            brute.add(id, before, w.from(), newTo);
            live.put(id, new Window(w.from(), newTo));
        }

        private void extend() {
            String id = anyLive();
            Window w = live.get(id);
            int newTo = Math.min(HORIZON, w.to() + 1 + random.nextInt(8));
            if (newTo <= w.to()) {
                return;
            }
            List<UnitPlacement> units = fleet.placementsOf(id).orElseThrow();
            brute.remove(id);
            boolean free = fleet.gpus().stream()
                    .allMatch(gpu -> brute.fits(
                            gpu, units.stream().filter(u -> u.gpu().equals(gpu)).toList(), w.from(), newTo));
            PlacementOutcome outcome = fleet.extend(id, at(newTo));
            log.add(outcome);
            assertThat(outcome instanceof Placed)
                    .as("extend %s to %d (%s) when its slices are %s", id, newTo, outcome, free ? "free" : "taken")
                    .isEqualTo(free);
            Window now = free ? new Window(w.from(), newTo) : w;
            brute.add(id, units, now.from(), now.to());
            live.put(id, now);
        }

        private UnitKind randomKind() {
            List<GpuInstanceProfile> profiles = H200.profiles();
            int i = random.nextInt(profiles.size() + 2);
            return i >= profiles.size()
                    ? UnitKind.whole()
                    : UnitKind.mig(profiles.get(i).name());
        }

        private String anyLive() {
            List<String> ids = List.copyOf(live.keySet());
            return ids.get(random.nextInt(ids.size()));
        }
    }
}
