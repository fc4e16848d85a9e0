package io.gpuaas.local.mig;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.geometry.MigPlacement;
import io.gpuaas.local.fleet.FleetLayout;
import io.gpuaas.local.fleet.GpuLayout;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MigPlannerTest {

    private static final List<GpuLayout> DISABLED = Collections.nCopies(8, GpuLayout.WHOLE);

    private final MigPlanner planner = new MigPlanner(FleetLayout.GEOMETRY);

    @Test
    void shouldFindAValidLayoutWhenTheLowestStartsOfTheLargestProfileLeaveNoRoom() {
        // 3g.71gb at slice 0 would leave slices 4-7, where two 1g.18gb (starts 0-6) and a 2g.35gb do not fit.
        List<MigPlacement> layout = planner.firstFit(Map.of("3g.71gb", 1, "2g.35gb", 1, "1g.18gb", 2))
                .orElseThrow();

        assertThat(FleetLayout.GEOMETRY.isValid(layout)).isTrue();
        assertThat(layout).contains(MigPlacement.of("3g.71gb", 4));
    }

    @Test
    void shouldPlaceTheLargestProfileAtItsFirstStartWhenEverythingFits() {
        assertThat(planner.firstFit(Map.of("1g.18gb", 3, "4g.71gb", 1)).orElseThrow())
                .containsExactly(
                        MigPlacement.of("4g.71gb", 0),
                        MigPlacement.of("1g.18gb", 4),
                        MigPlacement.of("1g.18gb", 5),
                        MigPlacement.of("1g.18gb", 6));
    }

    @Test
    void shouldRefuseTheConfigWhenItsInstancesDoNotFitOneGpu() {
        MigPlanner.Plan plan = planner.plan(DISABLED, List.of(entry(List.of(2), Map.of("3g.71gb", 3))), Map.of());

        assertThat(plan).isInstanceOfSatisfying(MigPlanner.Invalid.class, i -> assertThat(i.reason())
                .startsWith("GPU 2"));
    }

    @Test
    void shouldRefuseAProfileTheGpuDoesNotOfferWhenTheConfigNamesOne() {
        MigPlanner.Plan plan = planner.plan(DISABLED, List.of(entry(null, Map.of("1g.10gb", 7))), Map.of());

        assertThat(plan).isInstanceOfSatisfying(MigPlanner.Invalid.class, i -> assertThat(i.reason())
                .contains("offers no MIG profile 1g.10gb"));
    }

    @Test
    void shouldRefuseTheConfigWhenTwoEntriesSelectOneGpu() {
        MigPlanner.Plan plan = planner.plan(
                DISABLED,
                List.of(entry(null, Map.of("1g.18gb", 7)), new MigPartedConfig.Entry(List.of(3), false, Map.of())),
                Map.of());

        assertThat(plan).isInstanceOf(MigPlanner.Invalid.class);
    }

    @Test
    void shouldRefuseTheConfigWhenItSelectsAGpuTheNodeDoesNotHave() {
        MigPlanner.Plan plan = planner.plan(DISABLED, List.of(entry(List.of(8), Map.of("1g.18gb", 7))), Map.of());

        assertThat(plan).isInstanceOf(MigPlanner.Invalid.class);
    }

    @Test
    void shouldChangeOnlyTheSelectedGpusWhenTheConfigListsSome() {
        MigPlanner.Plan plan = planner.plan(DISABLED, List.of(entry(List.of(0, 5), Map.of("7g.141gb", 1))), Map.of());

        assertThat(plan).isInstanceOfSatisfying(MigPlanner.Applicable.class, a -> {
            assertThat(a.changed()).isEqualTo(Set.of(0, 5));
            assertThat(a.layouts().get(0)).isEqualTo(GpuLayout.mig(List.of(MigPlacement.of("7g.141gb", 0))));
            assertThat(a.layouts().get(1)).isEqualTo(GpuLayout.WHOLE);
        });
    }

    @Test
    void shouldTakeTheAnnotatedStartsWhenTheyHoldTheConfigsInstancesAndAreValid() {
        GpuLayout annotated = GpuLayout.mig(List.of(MigPlacement.of("3g.71gb", 4), MigPlacement.of("3g.71gb", 0)));

        MigPlanner.Plan plan =
                planner.plan(DISABLED, List.of(entry(List.of(0), Map.of("3g.71gb", 2))), Map.of(0, annotated));

        assertThat(plan).isInstanceOfSatisfying(MigPlanner.Applicable.class, a -> assertThat(
                        a.layouts().get(0))
                .isEqualTo(annotated));
    }

    @Test
    void shouldIgnoreTheAnnotationWhenItsStartsAreNotAValidLayout() {
        GpuLayout overlapping = GpuLayout.mig(List.of(MigPlacement.of("2g.35gb", 0), MigPlacement.of("1g.18gb", 1)));

        MigPlanner.Plan plan = planner.plan(
                DISABLED, List.of(entry(List.of(0), Map.of("2g.35gb", 1, "1g.18gb", 1))), Map.of(0, overlapping));

        assertThat(plan).isInstanceOfSatisfying(MigPlanner.Applicable.class, a -> assertThat(
                        a.layouts().get(0).instances())
                .containsExactly(MigPlacement.of("2g.35gb", 0), MigPlacement.of("1g.18gb", 2)));
    }

    @Test
    void shouldReportNoChangeWhenAGpuAlreadyRunsTheConfigsLayout() {
        List<GpuLayout> current = new java.util.ArrayList<>(DISABLED);
        current.set(3, GpuLayout.mig(List.of(MigPlacement.of("7g.141gb", 0))));

        MigPlanner.Plan plan = planner.plan(current, List.of(entry(List.of(3), Map.of("7g.141gb", 1))), Map.of());

        assertThat(plan).isInstanceOfSatisfying(MigPlanner.Applicable.class, a -> assertThat(a.changed())
                .isEmpty());
    }

    private static MigPartedConfig.Entry entry(List<Integer> devices, Map<String, Integer> instances) {
        return new MigPartedConfig.Entry(devices, true, instances);
    }
}
