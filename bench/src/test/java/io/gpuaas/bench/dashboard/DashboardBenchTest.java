package io.gpuaas.bench.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The dashboard bench's summary of its loads, as BENCHMARKS.md shows it. */
class DashboardBenchTest {

    private static final DashboardBench.Result LOADS = new DashboardBench.Result(
            200, 5, 3, List.of(400.0, 380.0, 900.0, 410.0, 395.0, 420.0, 405.0, 390.0, 415.0, 600.0));

    @Test
    void shouldReportMedianAndNearestRankP90WhenTheLoadsVary() {
        assertThat(LOADS.quantile(0.5)).isEqualTo(405.0);
        assertThat(LOADS.quantile(0.9)).isEqualTo(600.0);
        assertThat(LOADS.min()).isEqualTo(380.0);
        assertThat(LOADS.max()).isEqualTo(900.0);
    }

    @Test
    void shouldNameTheFiguresAndTheCommandWhenTheReportIsWritten() {
        String report = DashboardBench.report(LOADS);

        assertThat(report)
                .contains("| signed-in page load | 405 | 600 | 380 | 900 | 10 |")
                .contains("200 bookings of 5 tenants")
                .contains("bench/run --only dashboard");
    }
}
