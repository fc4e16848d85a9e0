package io.gpuaas.bench.mig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Static layouts: first fit on fixed slots, never re-laid out, and the mixes the search tries. */
class StaticFleetTest {

    static Ask ask(String id, String profile, int quantity, long start, long end) {
        int compute = profile.equals(Ask.WHOLE) ? 7 : Integer.parseInt(profile.substring(0, 1));
        return new Ask(id, profile, compute, quantity, start, end);
    }

    @Test
    void shouldGiveASlotAgainOnlyOnceItsBookingHasEndedWhenFittingFirst() {
        StaticFleet fleet = new StaticFleet(List.of(StaticGpu.TWO_3G), List.of(1));

        assertThat(fleet.place(ask("a", "3g.71gb", 1, 0, 100))).isTrue();
        assertThat(fleet.place(ask("b", "3g.71gb", 1, 10, 50))).isTrue();
        assertThat(fleet.place(ask("c", "3g.71gb", 1, 20, 30))).isFalse();
        assertThat(fleet.place(ask("d", "3g.71gb", 1, 50, 60))).isTrue();
    }

    @Test
    void shouldPlaceAllUnitsOrNoneWhenAMultiGpuAskComes() {
        StaticFleet fleet = new StaticFleet(List.of(StaticGpu.WHOLE), List.of(4));

        assertThat(fleet.place(ask("a", Ask.WHOLE, 1, 0, 100))).isTrue();
        assertThat(fleet.place(ask("b", Ask.WHOLE, 4, 10, 20))).isFalse();
        assertThat(fleet.place(ask("c", Ask.WHOLE, 3, 10, 20))).isTrue();
        assertThat(fleet.place(ask("d", Ask.WHOLE, 1, 15, 20))).isFalse();
    }

    @Test
    void shouldRefuseAProfileNoGpuOfTheLayoutRunsWhenAskedForIt() {
        StaticFleet today = MixSearch.today(16).fleet();

        assertThat(today.slots("4g.71gb")).isZero();
        assertThat(today.place(ask("a", "4g.71gb", 1, 0, 10))).isFalse();
    }

    @Test
    void shouldRefuseToGoBackInTimeWhenAsksComeOutOfStartOrder() {
        StaticFleet fleet = new StaticFleet(List.of(StaticGpu.WHOLE), List.of(1));
        fleet.place(ask("a", Ask.WHOLE, 1, 100, 200));

        assertThatThrownBy(() -> fleet.place(ask("b", Ask.WHOLE, 1, 50, 60))).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void shouldLayOutTheSixteenGpusAsTheDefaultPoolsDoWhenBuildingTodaysLayout() {
        Map<String, Integer> gpusByProfile = new HashMap<>();
        for (Pool p : PoolCatalog.load(Optional.empty()).pools()) {
            gpusByProfile.put(p.migProfile() == null ? Ask.WHOLE : p.migProfile(), p.gpus());
        }
        StaticFleet today = MixSearch.today(16).fleet();

        assertThat(today.slots(Ask.WHOLE)).isEqualTo(gpusByProfile.get(Ask.WHOLE));
        assertThat(today.slots("1g.18gb")).isEqualTo(7 * gpusByProfile.get("1g.18gb"));
        assertThat(today.slots("2g.35gb")).isEqualTo(3 * gpusByProfile.get("2g.35gb"));
        assertThat(today.slots("3g.71gb")).isEqualTo(2 * gpusByProfile.get("3g.71gb"));
        assertThat(MixSearch.today(32).counts()).containsExactly(16, 4, 6, 6);
    }

    @Test
    void shouldTry495MixesOfWholeFleetsWhenSplittingIntoEighths() {
        List<MixSearch.Mix> mixes = MixSearch.mixes(StaticGpu.SEARCHED, 32, 8);

        assertThat(mixes).hasSize(495).allSatisfy(m -> assertThat(m.gpus()).isEqualTo(32));
        assertThat(mixes.getFirst().counts()).containsExactly(32, 0, 0, 0, 0);
        assertThat(mixes.getLast().counts()).containsExactly(0, 0, 0, 0, 32);
        assertThat(mixes.stream().map(MixSearch.Mix::counts).distinct()).hasSize(495);
        assertThat(mixes.get(1).counts()).containsExactly(28, 4, 0, 0, 0);
        assertThat(mixes.get(1).scaled(1000).counts()).containsExactly(875, 125, 0, 0, 0);
    }

    @Test
    void shouldBeValidH200LayoutsWhenCheckingEveryStaticKind() {
        StaticGpu.SEARCHED.forEach(k -> k.checkedOn(OpenbAsksTest.H200));
        StaticGpu.TODAY.forEach(k -> k.checkedOn(OpenbAsksTest.H200));
    }
}
