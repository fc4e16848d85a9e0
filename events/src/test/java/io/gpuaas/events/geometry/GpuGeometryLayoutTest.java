package io.gpuaas.events.geometry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class GpuGeometryLayoutTest {

    private final GpuGeometryCatalog catalog = GpuGeometryCatalog.shipped();
    private final GpuGeometry h200 = catalog.forModel("NVIDIA H200").orElseThrow();

    @Test
    void shouldAddEveryValidLayoutOfEveryCatalogGpuUpToExactlyOneGpu() {
        for (GpuGeometry gpu : catalog.geometries()) {
            Set<Set<MigPlacement>> bruteForce = everySubsetThatIsValid(gpu);
            List<List<MigPlacement>> layouts = gpu.layouts();

            assertThat(layouts).as("%s layouts", gpu).hasSize(bruteForce.size());
            assertThat(layouts.stream().map(Set::copyOf).toList()).containsExactlyInAnyOrderElementsOf(bruteForce);
            for (List<MigPlacement> layout : layouts) {
                double sum = gpu.weightIn(layout).stream()
                        .mapToDouble(Double::doubleValue)
                        .sum();
                assertThat(sum).as("%s %s", gpu, layout).isCloseTo(1.0, within(1e-12));
            }
        }
    }

    @Test
    void shouldWeighEachProfileLaidOutAloneAsOneOverTheMostInstancesAGpuHolds() {
        Map<String, Integer> k = Map.of(
                "1g.18gb", 7, "1g.18gb+me", 1, "1g.35gb", 4, "2g.35gb", 3, "3g.71gb", 2, "4g.71gb", 1, "7g.141gb", 1);
        k.forEach((profile, most) -> {
            assertThat(h200.mostInstances(profile)).as(profile).isEqualTo(most);
            assertThat(h200.staticWeight(profile)).as(profile).isCloseTo(1.0 / most, within(1e-12));
        });
        for (GpuGeometry gpu : catalog.geometries()) {
            for (GpuInstanceProfile p : gpu.profiles()) {
                int largestAlone = gpu.layouts().stream()
                        .filter(l -> l.stream().allMatch(i -> i.profile().equals(p.name())))
                        .mapToInt(List::size)
                        .max()
                        .orElseThrow();
                assertThat(gpu.mostInstances(p.name()))
                        .as("%s %s", gpu, p.name())
                        .isEqualTo(largestAlone);
            }
        }
    }

    @Test
    void shouldShareTheSlicesALayoutLeavesUnusableByMemorySlicesWhenTheLayoutIsMixed() {
        // 3 × 2g.35gb + 1g.18gb is maximal but leaves memory slice 7 unused: 2/7, 2/7, 2/7, 1/7.
        assertThat(h200.weightIn(List.of(at("2g.35gb", 0), at("2g.35gb", 2), at("2g.35gb", 4), at("1g.18gb", 6))))
                .containsExactly(2.0 / 7, 2.0 / 7, 2.0 / 7, 1.0 / 7);
        // 4g.71gb (64 SMs) and 3g.71gb (60 SMs) each take four memory slices: half a GPU each.
        assertThat(h200.weightIn(List.of(at("4g.71gb", 0), at("3g.71gb", 4)))).containsExactly(0.5, 0.5);
        assertThat(h200.weightIn(List.of(at("2g.35gb", 0), at("1g.35gb", 2), at("3g.71gb", 4))))
                .containsExactly(0.25, 0.25, 0.5);
    }

    @Test
    void shouldRefuseALayoutThatNoGpuCanRun() {
        assertThat(h200.violations(List.of(at("3g.71gb", 0), at("2g.35gb", 2))))
                .containsExactly("2g.35gb@2 overlaps another instance's memory slices");
        assertThat(h200.violations(List.of(at("2g.35gb", 1)))).containsExactly("2g.35gb@1 may start only at [0, 2, 4]");
        assertThat(h200.violations(List.of(at("1g.18gb+me", 0), at("1g.18gb+me", 1))))
                .contains("a GPU holds at most 1 × 1g.18gb+me");
        assertThat(h200.violations(List.of(at("2g.71gb", 0))))
                .containsExactly("NVIDIA H200 offers no MIG profile 2g.71gb");
        GpuGeometry a30 = catalog.forModel("NVIDIA A30").orElseThrow();
        assertThat(a30.violations(List.of(at("1g.6gb+me", 0), at("2g.12gb+me", 2))))
                .containsExactly("a GPU's media engines go to one +me instance only");
        assertThatThrownBy(() -> h200.weightIn(List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("empty");
        assertThatThrownBy(() -> h200.mostInstances("1g.10gb"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("it offers 1g.18gb, 1g.18gb+me, 1g.35gb");
    }

    /** Independent of {@link GpuGeometry#layouts()}: every subset of all (profile, start) pairs that is valid. */
    private static Set<Set<MigPlacement>> everySubsetThatIsValid(GpuGeometry gpu) {
        List<MigPlacement> candidates = new ArrayList<>();
        gpu.profiles().forEach(p -> p.starts().forEach(s -> candidates.add(at(p.name(), s))));
        Set<Set<MigPlacement>> out = new HashSet<>();
        subsets(gpu, candidates, 0, new ArrayList<>(), out);
        out.remove(Set.of());
        return out;
    }

    private static void subsets(
            GpuGeometry gpu,
            List<MigPlacement> candidates,
            int next,
            List<MigPlacement> chosen,
            Set<Set<MigPlacement>> out) {
        if (next == candidates.size()) {
            out.add(Set.copyOf(chosen));
            return;
        }
        subsets(gpu, candidates, next + 1, chosen, out);
        chosen.add(candidates.get(next));
        if (gpu.isValid(chosen)) { // a subset of a valid layout is valid, so an invalid prefix ends the branch
            subsets(gpu, candidates, next + 1, chosen, out);
        }
        chosen.removeLast();
    }

    private static MigPlacement at(String profile, int start) {
        return MigPlacement.of(profile, start);
    }
}
