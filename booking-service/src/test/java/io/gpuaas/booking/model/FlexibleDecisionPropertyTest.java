package io.gpuaas.booking.model;

import static io.gpuaas.booking.placement.BruteForceFleet.STEP;
import static io.gpuaas.booking.placement.BruteForceFleet.T0;
import static io.gpuaas.booking.placement.BruteForceFleet.at;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.booking.placement.BruteForceFleet;
import io.gpuaas.booking.placement.GpuAddress;
import io.gpuaas.booking.placement.UnitKind;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingCommand;
import io.gpuaas.events.booking.BookingCommand.CancelBooking;
import io.gpuaas.events.booking.BookingCommand.ChangeBooking;
import io.gpuaas.events.booking.BookingCommand.CreateBooking;
import io.gpuaas.events.booking.BookingCommand.ReleaseBooking;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.BookingEvent.BookingMoved;
import io.gpuaas.events.booking.BookingEvent.BookingRejected;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.booking.Caller;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.events.pool.PoolNode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Test;

/**
 * Random streams of creates (every bookable H200 profile and whole GPUs), cancels, end-nows and extends on a flexible
 * pool of 3 GPUs on two nodes, with the clock moving on a 15-minute grid, decided by {@link BookingDecider}. After
 * every decision the placements the booking states publish are checked against {@link BruteForceFleet} (no slice held
 * twice, every layout valid, a whole GPU alone); a single unit is refused only when no GPU and start is free for the
 * whole window; and a ledger rebuilt from the final booking states, in shuffled order, has the same layouts.
 */
class FlexibleDecisionPropertyTest {

    private static final Pool POOL = Pool.flexible(
            "h200-flex",
            "h200-flex",
            "NVIDIA H200",
            null,
            List.of(new PoolNode("gpu-node-3", 2), new PoolNode("gpu-node-4", 1)));
    private static final PoolCatalog POOLS = new PoolCatalog(List.of(POOL));
    private static final List<GpuAddress> GPUS =
            List.of(new GpuAddress("gpu-node-3", 0), new GpuAddress("gpu-node-3", 1), new GpuAddress("gpu-node-4", 0));
    private static final List<Caller> TENANTS = List.of(Fixtures.TEAM_A, Fixtures.TEAM_B);
    private static final int OPERATIONS = 150;
    private static final int HORIZON = 96;

    @RepeatedTest(25)
    void shouldPublishOnlyValidPlacementsAndRebuildThemWhenBookingsComeAndGo(RepetitionInfo info) {
        long seed = info.getCurrentRepetition() * 15_485_863L;
        Run run = new Run(seed);
        try {
            run.play();
            run.checkRebuild();
        } catch (AssertionError e) {
            throw new AssertionError("seed " + seed + ": " + e.getMessage(), e);
        }
        assertThat(run.confirmed).as("seed %d confirms bookings", seed).isGreaterThan(10);
    }

    @RepeatedTest(3)
    void shouldPublishTheSameDecisionsWhenTheCommandsAreReplayed(RepetitionInfo info) {
        long seed = info.getCurrentRepetition() * 104_729L;
        Run first = new Run(seed);
        first.play();
        Run replay = new Run(seed);
        replay.play();

        assertThat(replay.published).isEqualTo(first.published);
    }

    @Test
    void shouldMakeRoomByMovingBookingsWhenStreamsFragmentTheFleet() {
        int moves = 0;
        for (int seed = 1; seed <= 5; seed++) {
            Run run = new Run(seed * 15_485_863L);
            run.play();
            moves += run.moves;
        }

        assertThat(moves)
                .as("moves over the first five streams the property checks")
                .isPositive();
    }

    private static final class Run {
        private final Random random;
        private final BookingDecider decider = new BookingDecider(POOLS, BookingPolicy.DEFAULT);
        private final BookingLedger ledger = new BookingLedger(new InMemoryBookingRepository(), POOLS);
        private final TreeMap<String, Booking> states = new TreeMap<>();
        private final List<BookingEvent> published = new ArrayList<>();
        private final List<String> profiles = new ArrayList<>(POOL.bookableProfiles());
        private int clock;
        private int confirmed;
        private int moves;
        private int ids;

        Run(long seed) {
            random = new Random(seed);
            profiles.add(null);
        }

        void play() {
            for (int i = 0; i < OPERATIONS; i++) {
                if (random.nextInt(6) == 0 && clock < HORIZON - 20) {
                    clock++;
                    apply(decider.advance(ledger, at(clock)));
                }
                BookingCommand command = next();
                Decision decision = decider.decide(command, ledger, at(clock));
                apply(decision);
                check(command, decision);
            }
        }

        private BookingCommand next() {
            List<Booking> holding = states.values().stream()
                    .filter(b -> b.state().holdsCapacity())
                    .toList();
            int kind = random.nextInt(10);
            if (holding.isEmpty() || kind < 6) {
                return create();
            }
            Booking b = holding.get(random.nextInt(holding.size()));
            Caller owner = TENANTS.stream()
                    .filter(c -> c.tenant().equals(b.tenant()))
                    .findFirst()
                    .orElseThrow();
            return switch (kind) {
                case 6 -> new CancelBooking("cancel-" + ids++, null, owner, POOL.id(), b.id(), T0);
                case 7 ->
                    new ReleaseBooking(
                            "end-" + ids++, null, owner, POOL.id(), b.id(), ReleaseBooking.Reason.END_NOW, T0, null);
                default ->
                    new ChangeBooking(
                            "extend-" + ids++,
                            null,
                            owner,
                            POOL.id(),
                            b.id(),
                            b.start(),
                            b.end().plus(STEP.multipliedBy(1 + random.nextInt(6))),
                            T0);
            };
        }

        private CreateBooking create() {
            int from = clock + random.nextInt(12);
            int to = from + 1 + random.nextInt(12);
            String profile = profiles.get(random.nextInt(profiles.size()));
            int quantity = 1 + random.nextInt(profile == null ? 2 : 3);
            Caller caller = TENANTS.get(random.nextInt(TENANTS.size()));
            String id = "b" + ids++;
            return new CreateBooking(
                    "req-" + id,
                    null,
                    caller,
                    POOL.id(),
                    id,
                    caller.tenant(),
                    quantity,
                    at(from),
                    at(to),
                    null,
                    T0,
                    null,
                    null,
                    profile);
        }

        private void apply(Decision decision) {
            ledger.apply(decision);
            decision.changes().forEach(b -> states.put(b.id(), b));
            published.addAll(decision.events());
        }

        private void check(BookingCommand command, Decision decision) {
            List<BookingEvent> events = decision.events();
            for (int i = 0; i < events.size(); i++) {
                if (events.get(i) instanceof BookingMoved moved) {
                    moves++;
                    assertThat(events.subList(0, i)).allMatch(BookingMoved.class::isInstance);
                    assertThat(moved.booking().start()).isAfter(at(clock));
                    assertThat(moved.forBooking()).isEqualTo(command.bookingId());
                }
            }
            if (events.getLast() instanceof BookingEvent.BookingConfirmed
                    || events.getLast() instanceof BookingEvent.BookingActivated) {
                confirmed++;
            }
            BruteForceFleet brute = brute();
            assertThat(brute.violations(HORIZON)).as("after %s", command).isEmpty();
            if (command instanceof CreateBooking c
                    && c.quantity() == 1
                    && events.getFirst() instanceof BookingRejected rejected
                    && rejected.reason().equals("CAPACITY")) {
                UnitKind kind = c.profile() == null ? UnitKind.whole() : UnitKind.mig(c.profile());
                assertThat(brute.someSingleFits(kind, step(c.start()), step(c.end())))
                        .as("a single %s refused for %s..%s though it fits", kind, c.start(), c.end())
                        .isFalse();
                assertThat(rejected.conflicts()).singleElement().satisfies(i -> {
                    assertThat(i.start()).isBetween(c.start(), c.end());
                    assertThat(i.end()).isBetween(c.start(), c.end());
                });
            }
        }

        /** The brute-force fleet of what the booking states say: each unit over the time it holds its slice. */
        private BruteForceFleet brute() {
            BruteForceFleet brute = new BruteForceFleet(FlexibleFleetsAccess.geometry(POOL), GPUS);
            for (Booking b : states.values()) {
                Instant until = b.state().holdsCapacity()
                        ? b.end()
                        : b.state() == BookingState.RELEASED ? b.updatedAt() : b.start();
                if (until.isAfter(b.start())) {
                    brute.add(b.id(), FlexibleFleets.units(b.placement()), step(b.start()), step(until));
                }
            }
            return brute;
        }

        void checkRebuild() {
            InMemoryBookingRepository repository = new InMemoryBookingRepository();
            List<Booking> shuffled = new ArrayList<>(states.values());
            Collections.shuffle(shuffled, random);
            shuffled.forEach(repository::save);
            BookingLedger rebuilt = new BookingLedger(repository, POOLS).rebuild();

            assertThat(rebuilt.restoreRefusals()).isEmpty();
            BruteForceFleet brute = brute();
            for (int step = 0; step < HORIZON; step++) {
                var live = ledger.fleet(POOL.id()).orElseThrow().layoutsAt(at(step));
                assertThat(rebuilt.fleet(POOL.id()).orElseThrow().layoutsAt(at(step)))
                        .as("step %d", step)
                        .isEqualTo(live);
                assertThat(live).as("step %d", step).isEqualTo(brute.layoutsAt(step));
            }
        }

        private static int step(Instant t) {
            return (int) (Duration.between(T0, t).toMinutes() / STEP.toMinutes());
        }
    }

    /** The geometry the pool is laid out on. */
    private static final class FlexibleFleetsAccess {
        static io.gpuaas.events.geometry.GpuGeometry geometry(Pool pool) {
            return PoolUnits.geometry(pool);
        }
    }
}
