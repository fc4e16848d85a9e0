package io.gpuaas.bench.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.gpuaas.bench.BenchOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The suite's child JVM flags: the benches that compare their runs with each other get a fixed heap. */
class PlanTest {

    private static Step stepStartingWith(List<Step> steps, String id) {
        return steps.stream().filter(s -> s.id().startsWith(id)).findFirst().orElseThrow();
    }

    @Test
    void shouldFixTheHeapOfTheBookingAndReclaimBenchesWhenPlanningTheFullRun() {
        List<Step> steps = Plan.of(false, Path.of("/nonexistent"));

        assertThat(Plan.jvmFlags(stepStartingWith(steps, "booking"))).containsExactly("-Xms1500m");
        assertThat(Plan.jvmFlags(stepStartingWith(steps, "reclaim-10000"))).containsExactly("-Xms1500m");
        assertThat(Plan.jvmFlags(stepStartingWith(steps, "quota-100"))).isEmpty();
        assertThat(Plan.jvmFlags(stepStartingWith(steps, "scale-16-2"))).isEmpty();
    }

    @Test
    void shouldPlanTheDashboardStepWithFifteenMeasuredLoadsWhenPlanningTheFullRun() {
        Step dashboard = stepStartingWith(Plan.of(false, Path.of("/nonexistent")), "dashboard");

        assertThat(dashboard.kind().area).isEqualTo("booking");
        assertThat(dashboard.args()).containsSequence("--loads", "15").containsSequence("--warmups", "3");
    }

    @Test
    void shouldGiveEveryBenchOptionsItsParserReadsWhenPlanningAnyRun(@TempDir Path data) throws IOException {
        Files.createFile(data.resolve("gpu-duty-cycle-dev.csv"));
        for (boolean quick : new boolean[] {true, false}) {
            List<Step> steps = Plan.of(quick, data);
            assertThat(steps).extracting(Step::id).anyMatch(id -> id.startsWith("reclaim-replay"));
            for (Step step : steps) {
                assertThatCode(() -> BenchOptions.of(step.args().toArray(String[]::new)))
                        .as("the options of %s: %s", step.id(), step.args())
                        .doesNotThrowAnyException();
            }
        }
    }

    @Test
    void shouldCallAWarmUpRoundSettledWhenTheJitCompiledForUnderATenthOfIt() {
        assertThat(new JvmActivity(900, 50).settled(10.0)).isTrue();
        assertThat(new JvmActivity(7_000, 50).settled(10.0)).isFalse();
    }

    @Test
    void shouldPlanTheMigReplayEvenWithoutTheTraceSoItCanSayWhyWhenPlanningAnyRun() {
        Step quick = stepStartingWith(Plan.of(true, Path.of("/nonexistent")), "mig-replay");
        Step full = stepStartingWith(Plan.of(false, Path.of("/data")), "mig-replay");

        assertThat(quick.kind().area).isEqualTo("mig");
        assertThat(quick.args()).containsSequence("--cost-gpus", "200").containsSequence("--cost-rounds", "1");
        assertThat(full.args())
                .containsSequence("--csv", Path.of("/data/openb-pod-list.csv").toString())
                .containsSequence("--gpus", "32,64")
                .containsSequence("--cost-gpus", "1000")
                .containsSequence("--cost-rounds", "3");
        assertThat(Plan.jvmFlags(full)).containsExactly("-Xms1500m");
    }
}
