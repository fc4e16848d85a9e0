package io.gpuaas.quota.mig;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.booking.PlacedUnit;
import io.gpuaas.events.geometry.GpuGeometry;
import io.gpuaas.events.geometry.GpuGeometryCatalog;
import io.gpuaas.events.geometry.MigPlacement;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolNode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MigLayoutPlannerTest {

    static final Pool POOL = Pool.flexible(
            "h200-flex", "h200-flex", "NVIDIA H200", null, List.of(new PoolNode("n1", 2), new PoolNode("n2", 1)));
    static final GpuGeometry H200 =
            GpuGeometryCatalog.shipped().forModel("NVIDIA H200").orElseThrow();
    static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");
    static final Duration LEAD = Duration.ofMinutes(10);

    static Booking booking(String id, Instant start, Instant end, BookingState state, List<PlacedUnit> units) {
        String profile = units.getFirst().profile();
        return new Booking(
                id,
                "team-a",
                "team-a",
                POOL.id(),
                POOL.flavor(),
                POOL.resourceFor(profile),
                units.size(),
                start,
                end,
                null,
                state,
                "alice",
                start.minusSeconds(3600),
                start.minusSeconds(3600),
                1,
                units);
    }

    static Map<String, MigLayoutPlanner.Observed> allWhole(Set<String> inUseOnN1) {
        return Map.of(
                "n1", new MigLayoutPlanner.Observed(NodeLayout.allWhole(2), inUseOnN1),
                "n2", new MigLayoutPlanner.Observed(NodeLayout.allWhole(1), Set.of()));
    }

    @Test
    void shouldAskForMixedProfilesOnOneGpuWhenTheirBookingsStartWithinTheLeadTime() {
        List<Booking> bookings = List.of(
                booking(
                        "b1",
                        NOW.plusSeconds(300),
                        NOW.plusSeconds(3600),
                        BookingState.CONFIRMED,
                        List.of(PlacedUnit.mig("n1", 1, "3g.71gb", 4))),
                booking(
                        "b2",
                        NOW.plusSeconds(540),
                        NOW.plusSeconds(3600),
                        BookingState.CONFIRMED,
                        List.of(PlacedUnit.mig("n1", 1, "1g.18gb", 0), PlacedUnit.mig("n1", 1, "1g.18gb", 1))));

        var decision = MigLayoutPlanner.plan(POOL, H200, bookings, NOW, LEAD, allWhole(Set.of()))
                .get("n1");

        assertThat(decision.changes()).isTrue();
        assertThat(decision.target().gpus().get(0)).as("untouched GPU").isEqualTo(GpuLayout.WHOLE);
        assertThat(decision.target().gpus().get(1))
                .isEqualTo(GpuLayout.mig(List.of(
                        MigPlacement.of("1g.18gb", 0), MigPlacement.of("1g.18gb", 1), MigPlacement.of("3g.71gb", 4))));
        assertThat(decision.needing()).extracting(Booking::id).containsExactly("b1", "b2");
        assertThat(MigPartedConfig.render(List.of(decision.target())))
                .contains("  " + decision.target().configName() + ":\n    - devices: [0]\n      mig-enabled: false\n"
                        + "    - devices: [1]\n      mig-enabled: true\n      mig-devices:\n        \"1g.18gb\": 2\n"
                        + "        \"3g.71gb\": 1\n");
    }

    @Test
    void shouldNotAskBeforeTheLeadTime() {
        List<Booking> bookings = List.of(booking(
                "b1",
                NOW.plus(LEAD).plusSeconds(1),
                NOW.plusSeconds(3600),
                BookingState.CONFIRMED,
                List.of(PlacedUnit.mig("n1", 0, "7g.141gb", 0))));

        assertThat(MigLayoutPlanner.plan(POOL, H200, bookings, NOW, LEAD, allWhole(Set.of()))
                        .get("n1")
                        .changes())
                .isFalse();
    }

    @Test
    void shouldHoldTheGpuWhenARunningPodHoldsAResourceItOffers() {
        List<Booking> bookings = List.of(booking(
                "b1",
                NOW.plusSeconds(300),
                NOW.plusSeconds(3600),
                BookingState.CONFIRMED,
                List.of(PlacedUnit.mig("n1", 0, "7g.141gb", 0))));

        var decision = MigLayoutPlanner.plan(POOL, H200, bookings, NOW, LEAD, allWhole(Set.of("nvidia.com/gpu")))
                .get("n1");

        assertThat(decision.changes()).isFalse();
        assertThat(decision.blocked()).singleElement().satisfies(b -> {
            assertThat(b.gpu()).isZero();
            assertThat(b.reason()).contains("running pod").contains("nvidia.com/gpu");
            assertThat(b.bookings()).extracting(Booking::id).containsExactly("b1");
        });
    }

    @Test
    void shouldHoldTheGpuWhileAnActiveBookingUsesItEvenIfTheNextOneNeedsAnotherLayout() {
        GpuLayout threeG = GpuLayout.mig(List.of(MigPlacement.of("3g.71gb", 0)));
        NodeLayout current = NodeLayout.allWhole(2).with(Map.of(0, threeG));
        List<Booking> bookings = List.of(
                booking(
                        "active",
                        NOW.minusSeconds(600),
                        NOW.plusSeconds(120),
                        BookingState.ACTIVE,
                        List.of(PlacedUnit.mig("n1", 0, "3g.71gb", 0))),
                booking(
                        "next",
                        NOW.plusSeconds(120),
                        NOW.plusSeconds(3600),
                        BookingState.CONFIRMED,
                        List.of(PlacedUnit.mig("n1", 0, "7g.141gb", 0))));

        var decision = MigLayoutPlanner.plan(
                        POOL, H200, bookings, NOW, LEAD, Map.of("n1", new MigLayoutPlanner.Observed(current, Set.of())))
                .get("n1");

        assertThat(decision.changes()).isFalse();
        assertThat(decision.target()).isEqualTo(current);
    }

    @Test
    void shouldNeverNameTheActiveBookingThatHoldsTheGpuInTheReason() {
        GpuLayout oneG = GpuLayout.mig(List.of(MigPlacement.of("1g.18gb", 0)));
        NodeLayout current = NodeLayout.allWhole(2).with(Map.of(0, oneG));
        List<Booking> bookings = List.of(
                booking(
                        "theirs",
                        NOW.minusSeconds(600),
                        NOW.plusSeconds(3600),
                        BookingState.ACTIVE,
                        List.of(PlacedUnit.mig("n1", 0, "1g.18gb", 0))),
                booking(
                        "next",
                        NOW.plusSeconds(120),
                        NOW.plusSeconds(3600),
                        BookingState.CONFIRMED,
                        List.of(PlacedUnit.mig("n1", 0, "3g.71gb", 4))));

        var decision = MigLayoutPlanner.plan(
                        POOL, H200, bookings, NOW, LEAD, Map.of("n1", new MigLayoutPlanner.Observed(current, Set.of())))
                .get("n1");

        assertThat(decision.changes()).isFalse();
        // The reason reaches the waiting bookings' teams, which may be other tenants: no id, no window of the holder.
        assertThat(decision.blocked()).singleElement().satisfies(b -> {
            assertThat(b.reason()).isEqualTo("an active booking holds GPU 0 of n1");
            assertThat(b.bookings()).extracting(Booking::id).contains("next");
        });
    }

    @Test
    void shouldKeepALayoutThatAlreadyCoversWhatIsNeeded() {
        GpuLayout sevenOnes = GpuLayout.mig(List.of(0, 1, 2, 3, 4, 5, 6).stream()
                .map(s -> MigPlacement.of("1g.18gb", s))
                .toList());
        NodeLayout current = NodeLayout.allWhole(2).with(Map.of(1, sevenOnes));
        List<Booking> bookings = List.of(booking(
                "b1",
                NOW.plusSeconds(60),
                NOW.plusSeconds(3600),
                BookingState.CONFIRMED,
                List.of(PlacedUnit.mig("n1", 1, "1g.18gb", 3))));

        var decision = MigLayoutPlanner.plan(
                        POOL, H200, bookings, NOW, LEAD, Map.of("n1", new MigLayoutPlanner.Observed(current, Set.of())))
                .get("n1");

        assertThat(decision.changes()).isFalse();
    }

    @Test
    void shouldGiveTheSameConfigNameToTheSameLayoutOnTwoNodes() {
        GpuLayout layout = GpuLayout.mig(List.of(MigPlacement.of("3g.71gb", 4), MigPlacement.of("2g.35gb", 0)));
        NodeLayout a = NodeLayout.allWhole(2).with(Map.of(1, layout));
        NodeLayout b = NodeLayout.allWhole(2)
                .with(Map.of(1, GpuLayout.mig(List.of(MigPlacement.of("2g.35gb", 0), MigPlacement.of("3g.71gb", 4)))));

        assertThat(a.configName()).isEqualTo(b.configName()).matches("gpuaas-[0-9a-f]{10}");
        assertThat(a.configName()).isNotEqualTo(NodeLayout.allWhole(2).configName());
        assertThat(LayoutAnnotation.read(LayoutAnnotation.write(a))).contains(a);
    }

    /**
     * Random histories on the pool: whatever the bookings, current layouts and pods, no GPU changes under an active
     * booking or under a pod holding one of its resources, and every planned GPU layout is valid on the H200.
     */
    @Test
    void shouldNeverChangeAGpuUnderAnActiveBookingOrAPodAndAlwaysPlanValidLayoutsWhenHistoriesAreRandom() {
        List<List<MigPlacement>> layouts = H200.layouts();
        for (long seed = 0; seed < 400; seed++) {
            Random random = new Random(seed);
            List<Booking> bookings = new ArrayList<>();
            for (PoolNode node : POOL.nodes()) {
                for (int gpu = 0; gpu < node.gpus(); gpu++) {
                    Instant t = NOW.minusSeconds(random.nextInt(3600));
                    for (int k = 0; k < 3; k++) {
                        Instant end = t.plusSeconds(60 + random.nextInt(1800));
                        List<PlacedUnit> units = random.nextInt(4) == 0
                                ? List.of(PlacedUnit.wholeGpu(node.name(), gpu))
                                : unitsOf(node.name(), gpu, layouts.get(random.nextInt(layouts.size())), random);
                        BookingState state = t.isAfter(NOW) ? BookingState.CONFIRMED : BookingState.ACTIVE;
                        bookings.add(booking("s" + seed + "-" + node.name() + gpu + k, t, end, state, units));
                        t = end.plusSeconds(random.nextInt(600));
                    }
                }
            }
            Map<String, MigLayoutPlanner.Observed> observed = Map.of(
                    "n1", new MigLayoutPlanner.Observed(randomNode(2, layouts, random), randomInUse(random)),
                    "n2", new MigLayoutPlanner.Observed(randomNode(1, layouts, random), randomInUse(random)));

            var decisions = MigLayoutPlanner.plan(POOL, H200, bookings, NOW, LEAD, observed);

            for (var decision : decisions.values()) {
                Set<String> inUse = observed.get(decision.node()).resourcesInUse();
                decision.target().gpus().forEach((gpu, layout) -> {
                    assertThat(layout.validOn(H200))
                            .as("%s GPU %s: %s", decision.node(), gpu, layout)
                            .isTrue();
                    GpuLayout before = decision.current().gpus().get(gpu);
                    if (!layout.equals(before)) {
                        assertThat(bookings)
                                .as("a change on %s GPU %s under an active booking", decision.node(), gpu)
                                .noneMatch(b -> b.activeAt(NOW)
                                        && b.placement().stream()
                                                .anyMatch(u -> u.node().equals(decision.node()) && u.gpu() == gpu));
                        assertThat(before.resources())
                                .as("a change under a pod")
                                .noneMatch(inUse::contains);
                    }
                });
            }
        }
    }

    private static List<PlacedUnit> unitsOf(String node, int gpu, List<MigPlacement> layout, Random random) {
        List<PlacedUnit> units = new ArrayList<>();
        for (MigPlacement p : layout) {
            if (units.isEmpty() || random.nextBoolean()) {
                units.add(PlacedUnit.mig(node, gpu, p.profile(), p.start()));
            }
        }
        return units;
    }

    private static NodeLayout randomNode(int gpus, List<List<MigPlacement>> layouts, Random random) {
        NodeLayout node = NodeLayout.allWhole(gpus);
        for (int gpu = 0; gpu < gpus; gpu++) {
            if (random.nextBoolean()) {
                node = node.with(Map.of(gpu, GpuLayout.mig(layouts.get(random.nextInt(layouts.size())))));
            }
        }
        return node;
    }

    private static Set<String> randomInUse(Random random) {
        return switch (random.nextInt(4)) {
            case 0 -> Set.of("nvidia.com/gpu");
            case 1 -> Set.of("nvidia.com/mig-1g.18gb");
            default -> Set.of();
        };
    }
}
