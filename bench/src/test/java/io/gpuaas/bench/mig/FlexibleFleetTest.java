package io.gpuaas.bench.mig;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The flexible fleet as the replay drives it, and how its re-layouts are counted. */
class FlexibleFleetTest {

    @Test
    void shouldAcceptWhatAllWholeStaticGpusAcceptWhenEveryAskIsForWholeGpus() {
        SplittableRandom random = new SplittableRandom(7);
        List<Ask> asks = new ArrayList<>();
        long t = 0;
        for (int i = 0; i < 400; i++) {
            t += random.nextInt(50);
            asks.add(StaticFleetTest.ask("a" + i, Ask.WHOLE, 1 + random.nextInt(3), t, t + 1 + random.nextInt(400)));
        }

        boolean[] flexible = Replay.run(new FlexibleFleet(OpenbAsksTest.H200, 8, true), asks);
        boolean[] fixed = Replay.run(new StaticFleet(List.of(StaticGpu.WHOLE), List.of(8)), asks);

        assertThat(flexible).isEqualTo(fixed).contains(false);
    }

    @Test
    void shouldShareOneGpuWhenA4gAndA3gComeTogether() {
        FlexibleFleet fleet = new FlexibleFleet(OpenbAsksTest.H200, 1, true);

        assertThat(fleet.place(StaticFleetTest.ask("a", "4g.71gb", 1, 0, 100))).isTrue();
        assertThat(fleet.place(StaticFleetTest.ask("b", "3g.71gb", 1, 10, 100))).isTrue();
        assertThat(fleet.place(StaticFleetTest.ask("c", "1g.18gb", 1, 20, 100))).isFalse();
    }

    @Test
    void shouldCountAReLayoutOnlyWhenAModeChangesOrAnInstanceOfAnotherShapeIsInTheWay() {
        FlexibleFleet fleet = new FlexibleFleet(OpenbAsksTest.H200, 1, true);

        fleet.place(StaticFleetTest.ask("a", "3g.71gb", 1, 0, 10)); // non-MIG → MIG: 1
        fleet.place(StaticFleetTest.ask("b", "3g.71gb", 1, 20, 30)); // the same instance again: none
        int bSlice = fleet.unitsOf("b").getFirst().startSlice();
        fleet.place(StaticFleetTest.ask("c", Ask.WHOLE, 1, 40, 50)); // MIG → non-MIG: 2
        fleet.place(StaticFleetTest.ask("d", "2g.35gb", 1, 60, 70)); // non-MIG → MIG: 3
        fleet.place(StaticFleetTest.ask("e", "2g.35gb", 1, 60, 70)); // beside d at the same instant: still 3

        assertThat(bSlice).isEqualTo(fleet.unitsOf("a").getFirst().startSlice());
        assertThat(fleet.changes().relayouts(0, 100)).isEqualTo(3);
        assertThat(fleet.changes().relayouts(40, 100)).isEqualTo(2);
        assertThat(fleet.changes().busiestGpuDay(0, 100)).isEqualTo(3);
        assertThat(fleet.changes().created()).isEqualTo(3);
    }

    @Test
    void shouldCountAReLayoutWhenANewInstanceOverlapsAnIdleOneOfAnotherProfile() {
        FlexibleFleet fleet = new FlexibleFleet(OpenbAsksTest.H200, 1, true);

        fleet.place(StaticFleetTest.ask("a", "4g.71gb", 1, 0, 10)); // 4g.71gb only starts at 0; non-MIG → MIG: 1
        fleet.place(StaticFleetTest.ask("b", "2g.35gb", 1, 20, 30)); // at 4, clear of the idle 4g.71gb: none
        fleet.place(StaticFleetTest.ask("c", "3g.71gb", 1, 40, 50)); // at 0 over the idle 4g.71gb (or 4, over b's)

        assertThat(fleet.unitsOf("b").getFirst().startSlice()).isEqualTo(4);
        assertThat(fleet.changes().relayouts(0, 30)).isEqualTo(1);
        assertThat(fleet.changes().relayouts(0, 100)).isEqualTo(2);
    }
}
