package io.gpuaas.bench.suite;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The suite reads the figures the area benches print; these are excerpts of their real outputs (see each file). */
class ExtractTest {

    static String resource(String name) throws IOException {
        try (InputStream in = ExtractTest.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    static Step step(Step.Kind kind, int size) {
        return new Step(kind.name().toLowerCase() + "-" + size, kind, size, "x.Main", List.of(), "1g", 60);
    }

    @Test
    void shouldReadEveryBookingFigureWhenBookingBenchPrintsItsReport() throws IOException {
        Results r = new Results();
        Extract.into(r, step(Step.Kind.BOOKING, 0), resource("booking-output.md"));

        assertThat(r.get("booking.fixed_p99_ms").orElseThrow())
                .extracting(Figure::min, Figure::max, Figure::n)
                .containsExactly(24.2, 44.0, 3);
        assertThat(r.get("booking.fixed_p50_ms").orElseThrow().max()).isEqualTo(12.7);
        assertThat(r.get("booking.raw_rt_p99_ms").orElseThrow())
                .extracting(Figure::max, Figure::n)
                .containsExactly(2.4, 3);
        assertThat(r.get("booking.saturated_per_s").orElseThrow())
                .extracting(Figure::min, Figure::median, Figure::max)
                .containsExactly(6098.0, 8373.0, 9079.0);
        assertThat(r.get("booking.availability_p99_ms").orElseThrow().median()).isEqualTo(0.14);
        assertThat(r.get("booking.openb.accepted").orElseThrow().median()).isEqualTo(7035.0);
        assertThat(r.get("booking.local16.accepted").orElseThrow().median()).isEqualTo(4057.0);
        assertThat(r.noteOf("booking.local16.rejected")).hasValue("{CAPACITY=2978, POLICY_MAX_DURATION=29}");
        assertThat(r.noteOf("booking.local16.utilization").orElseThrow()).contains("h200 19.2 %");
        assertThat(r.problems()).isEmpty();
    }

    @Test
    void shouldKeepTheDirectRowsOutOfTheTargetAndReadTheBudgetReplayWhenBookingBenchPrintsThem() {
        Results r = new Results();
        Extract.into(r, step(Step.Kind.BOOKING, 0), """
                | run | records | seconds | records/s | p50 ms | p99 ms | max ms | JIT ms | GC ms |
                |---|---|---|---|---|---|---|---|---|
                | raw produce→consume at 500/s | 5000 | 10.0 | 500 | 0.9 | 3.1 | 9.3 | 180 | 6 |
                | decisions at 500/s | 5000 | 10.0 | 499 | 12.5 | 41.0 | 52.2 | 780 | 12 |
                | direct to the pool's topic: decisions at 500/s | 5000 | 10.0 | 499 | 8.5 | 30.0 | 40.2 | 700 | 10 |
                RESULT booking.budget.decision_p99_ms 44.10
                RESULT booking.budget.raw_rt_p99_ms 2.90
                RESULT booking.budget.refused_for_budget 1234
                PROBLEM budget replay: answered 9 of 10 requests
                """);

        assertThat(r.get("booking.fixed_p99_ms").orElseThrow())
                .extracting(Figure::median, Figure::n)
                .containsExactly(41.0, 1);
        assertThat(r.get("booking.budget.decision_p99_ms").orElseThrow().median())
                .isEqualTo(44.1);
        assertThat(r.get("booking.budget.raw_rt_p99_ms").orElseThrow().median()).isEqualTo(2.9);
        assertThat(r.get("booking.budget.refused_for_budget").orElseThrow().median())
                .isEqualTo(1234.0);
        assertThat(r.problems()).containsExactly("budget replay: answered 9 of 10 requests");
    }

    @Test
    void shouldReadQuotaLatenciesPerTenantCountWhenQuotaBenchReports() throws IOException {
        Results r = new Results();
        Extract.into(r, step(Step.Kind.QUOTA, 1000), resource("quota-output.md"));

        assertThat(r.get("quota.1000t.boundary_spread_p99_ms").orElseThrow())
                .extracting(Figure::min, Figure::max)
                .containsExactly(838.4, 840.9);
        assertThat(r.get("quota.1000t.boundary_instant_p99_ms").orElseThrow().max())
                .isEqualTo(237.5);
        assertThat(r.get("quota.1000t.workload_state_p99_ms").orElseThrow().median())
                .isEqualTo(44.4);
        assertThat(r.get("quota.1000t.raw_create_watch_p99_ms").orElseThrow().median())
                .isEqualTo(32.7);
        assertThat(r.get("quota.1000t.kafka_rt_p99_ms").orElseThrow().median()).isEqualTo(8.8);
    }

    @Test
    void shouldKeepTheOneCoreBusyRowsApartWhenQuotaBenchMeasuresBothConditions() {
        String output = """
                | measurement | n | min ms | p50 ms | p90 ms | p99 ms | max ms |
                |---|---|---|---|---|---|---|
                | baseline: raw create → watch event (same API server), quiet | 200 | 0.8 | 1.6 | 4.8 | 13.3 | 45.9 |
                | baseline: raw create at each instant, same spread (no projector), quiet | 1000 | 1.8 | 2.5 | 4.2 | 9.0 | 28.9 |
                | boundary → ClusterQueue, starts spread over 20 s, quiet | 1000 | 2.4 | 7.8 | 15.0 | 37.5 | 55.8 |
                | boundary → ClusterQueue, 200 starts on one instant, quiet | 200 | 12.6 | 145.2 | 227.9 | 237.5 | 237.6 |
                | baseline: raw create → watch event (same API server), one core busy | 200 | 1 | 2 | 9 | 21.0 | 50 |
                | baseline: raw create at each instant, same spread (no projector), one core busy | 1000 | 2 | 3 | 6 | 14.0 | 40 |
                | boundary → ClusterQueue, starts spread over 20 s, one core busy | 1000 | 3 | 9 | 30 | 61.0 | 90 |
                | boundary → ClusterQueue, 200 starts on one instant, one core busy | 200 | 20 | 200 | 300 | 333.0 | 340 |
                """;
        Results r = new Results();
        Extract.into(r, step(Step.Kind.QUOTA, 1000), output);

        assertThat(r.get("quota.1000t.boundary_spread_p99_ms").orElseThrow().max())
                .isEqualTo(37.5);
        assertThat(r.get("quota.1000t.boundary_spread_busy_p99_ms")
                        .orElseThrow()
                        .max())
                .isEqualTo(61.0);
        assertThat(r.get("quota.1000t.boundary_instant_busy_p99_ms")
                        .orElseThrow()
                        .max())
                .isEqualTo(333.0);
        assertThat(r.get("quota.1000t.raw_spread_busy_p99_ms").orElseThrow().max())
                .isEqualTo(14.0);
        assertThat(r.get("quota.1000t.raw_create_watch_busy_p99_ms")
                        .orElseThrow()
                        .max())
                .isEqualTo(21.0);
        assertThat(r.get("quota.1000t.raw_create_watch_p99_ms").orElseThrow().max())
                .isEqualTo(13.3);
    }

    @Test
    void shouldReadThousandsSeparatedRatesWhenReclaimAndMetricsBenchesPrintThem() throws IOException {
        Results r = new Results();
        Extract.into(r, step(Step.Kind.RECLAIM, 10000), resource("reclaim-output.txt"));
        Extract.into(r, step(Step.Kind.REPLAY, 0), resource("replay-output.txt"));
        Extract.into(r, step(Step.Kind.INGEST, 10000), resource("ingest-output.txt"));
        Extract.into(r, step(Step.Kind.RENDER, 10000), resource("render-output.txt"));

        assertThat(r.get("reclaim.10000g.pipeline_per_s").orElseThrow())
                .extracting(Figure::min, Figure::max, Figure::n)
                .containsExactly(58564.0, 96134.0, 3);
        assertThat(r.get("reclaim.10000g.raw_consumer_per_s").orElseThrow())
                .extracting(Figure::min, Figure::max)
                .containsExactly(190445.0, 220633.0);
        assertThat(r.get("reclaim.close_to_patch_p99_ms").orElseThrow().median())
                .isEqualTo(360.0);
        assertThat(r.get("replay.rejected_total").orElseThrow().median()).isZero();
        assertThat(r.noteOf("replay.15min").orElseThrow())
                .contains("oracle 859")
                .contains("448.5 / 448.5");
        assertThat(r.get("ingest.10000g.published_per_s").orElseThrow())
                .extracting(Figure::median, Figure::min, Figure::max, Figure::n)
                .containsExactly(55702.0, 42714.0, 66623.0, 5);
        assertThat(r.get("render.10000g.1000t.text_ms").orElseThrow().median()).isEqualTo(20.6);
        assertThat(r.get("render.10000g.1000t.series").orElseThrow().median()).isEqualTo(25004.0);
        assertThat(r.problems()).isEmpty();
    }

    @Test
    void shouldCountOnlyTheMeasuredRunsWhenABenchPrintsItsDiscardedWarmUpRows() {
        Results r = new Results();
        Extract.into(r, step(Step.Kind.BOOKING, 0), """
                | run | records | seconds | records/s | p50 ms | p99 ms | max ms | JIT ms | GC ms |
                |---|---|---|---|---|---|---|---|---|
                | warm-up (discarded) 1: raw produce→consume at 500/s | 5000 | 10.0 | 499 | 54.8 | 600.6 | 658.4 | 14868 | 155 |
                | warm-up (discarded) 1: decisions at 500/s | 5000 | 24.7 | 203 | 11796.5 | 18120.7 | 18350.1 | 28740 | 307 |
                | raw produce→consume at 500/s | 5000 | 10.0 | 500 | 0.7 | 12.0 | 39.3 | 1805 | 36 |
                | decisions at 500/s | 5000 | 10.0 | 499 | 17.8 | 151.8 | 233.1 | 7784 | 129 |
                """);
        Extract.into(r, step(Step.Kind.RECLAIM, 1000), """
                | run | raw consumer samples/s | pipeline samples/s | raw CPU µs/sample | pipeline CPU µs/sample | JIT ms | GC ms |
                |---|---|---|---|---|---|---|
                | warm-up (discarded) 1 | 20,639 | 8,452 | 70.1 | 160.8 | 62109 | 1991 |
                | 1 | 158,060 | 82,995 | 6.2 | 25.0 | 7128 | 329 |

                | run | reclaims | p50 ms | p99 ms | max ms |
                |---|---|---|---|---|
                | warm-up (discarded) | 200 | 785 | 1521 | 1702 |
                | 1 | 200 | 261 | 444 | 478 |
                """);

        assertThat(r.get("booking.fixed_p99_ms").orElseThrow())
                .extracting(Figure::median, Figure::n)
                .containsExactly(151.8, 1);
        assertThat(r.get("booking.raw_rt_p99_ms").orElseThrow())
                .extracting(Figure::median, Figure::n)
                .containsExactly(12.0, 1);
        assertThat(r.get("reclaim.1000g.pipeline_per_s").orElseThrow())
                .extracting(Figure::median, Figure::n)
                .containsExactly(82995.0, 1);
        assertThat(r.get("reclaim.1000g.raw_consumer_per_s").orElseThrow().median())
                .isEqualTo(158060.0);
        assertThat(r.get("reclaim.close_to_patch_p99_ms").orElseThrow())
                .extracting(Figure::median, Figure::n)
                .containsExactly(444.0, 1);
    }

    @Test
    void shouldReadTheFiguresWithoutAuthenticationApartWhenTheBenchesRanBothBrokers() {
        Results r = new Results();
        Extract.into(r, step(Step.Kind.BOOKING, 0), """
                | run | records | seconds | records/s | p50 ms | p99 ms | max ms | JIT ms | GC ms |
                |---|---|---|---|---|---|---|---|---|
                | warm-up (discarded) 1: auth off: decisions at 500/s | 5000 | 10.0 | 499 | 9.1 | 88.0 | 95.1 | 3000 | 20 |
                | raw produce→consume at 500/s | 5000 | 10.0 | 500 | 0.9 | 3.1 | 9.3 | 180 | 6 |
                | decisions at 500/s | 5000 | 10.0 | 499 | 12.5 | 41.0 | 52.2 | 780 | 12 |
                | auth off: raw produce→consume at 500/s | 5000 | 10.0 | 500 | 0.8 | 2.7 | 8.0 | 150 | 5 |
                | auth off: decisions at 500/s | 5000 | 10.0 | 499 | 11.9 | 37.5 | 48.0 | 700 | 11 |
                """);
        Extract.into(r, step(Step.Kind.INGEST, 1000), """
                | measurement | samples/s (median, min, max over rounds) |
                |---|---|
                | parsed and published (parser + scrape codec + idempotent acks=all, until acked) | 50,000 /s (min 45,000, max 52,000, n=2) |
                | auth off: parsed and published (parser + scrape codec + idempotent acks=all, until acked) | 60,000 /s (min 58,000, max 61,000, n=2) |
                """);

        assertThat(r.get("booking.fixed_p99_ms").orElseThrow())
                .extracting(Figure::median, Figure::n)
                .containsExactly(41.0, 1);
        assertThat(r.get("booking.raw_rt_p99_ms").orElseThrow().median()).isEqualTo(3.1);
        assertThat(r.get("booking.auth_off.fixed_p99_ms").orElseThrow())
                .extracting(Figure::median, Figure::n)
                .containsExactly(37.5, 1);
        assertThat(r.get("booking.auth_off.raw_rt_p99_ms").orElseThrow().median())
                .isEqualTo(2.7);
        assertThat(r.get("ingest.1000g.published_per_s").orElseThrow().median()).isEqualTo(50000.0);
        assertThat(r.get("ingest.1000g.auth_off.published_per_s").orElseThrow())
                .extracting(Figure::median, Figure::min, Figure::max)
                .containsExactly(60000.0, 58000.0, 61000.0);
    }

    @Test
    void shouldReadATableWhenLogLinesFallBetweenItsRows() {
        Results r = new Results();
        Extract.into(r, step(Step.Kind.RECLAIM, 1000), """
                | run | raw consumer samples/s | pipeline samples/s |
                |---|---|---|
                15:30:40.231 WARN  [tp-1-StreamThread-1] o.a.k.clients.NetworkClient - [Consumer clientId=tp-1] Error
                org.apache.kafka.common.errors.UnknownTopicOrPartitionException: This server does not host this topic-partition.
                \tat org.apache.kafka.X.y(X.java:1)
                | 1 | 2,133 | 583 |
                """);

        assertThat(r.get("reclaim.1000g.pipeline_per_s").orElseThrow().median()).isEqualTo(583.0);
        assertThat(r.problems()).isEmpty();
    }

    @Test
    void shouldRecordAProblemWhenABenchPrintsNoReadableFigure() {
        Results r = new Results();
        Extract.into(
                r,
                step(Step.Kind.BOOKING, 0),
                "Exception in thread \"main\" java.lang.OutOfMemoryError\n| a | b |\n|---|---|\n| x | y |\n");

        assertThat(r.isEmpty()).isTrue();
        assertThat(r.problems())
                .singleElement()
                .asString()
                .contains("booking-0")
                .contains("no figure");
    }

    @Test
    void shouldReadTheOverviewDrawTimesWhenTheDashboardBenchMeasured() {
        Results r = new Results();
        Extract.into(r, step(Step.Kind.DASHBOARD, 0), """
                dashboard: load 1 (warm-up, discarded): overview drawn 900 ms after navigation start
                RESULT dashboard.overview_drawn_p50_ms 412.0 ms
                RESULT dashboard.overview_drawn_p90_ms 530.0 ms
                """);

        assertThat(r.get("dashboard.overview_drawn_p50_ms").orElseThrow().median())
                .isEqualTo(412.0);
        assertThat(r.get("dashboard.overview_drawn_p90_ms")).isPresent();
        assertThat(r.problems()).isEmpty();
    }

    @Test
    void shouldRecordOnlyTheBenchsReasonWhenTheDashboardBenchWasSkipped() {
        Results r = new Results();
        Extract.into(r, step(Step.Kind.DASHBOARD, 0), """
                dashboard: skipped, nothing measured: Debian chromium and chromium-driver are not installed
                PROBLEM dashboard: skipped, nothing measured: Debian chromium and chromium-driver are not installed
                """);

        assertThat(r.isEmpty()).isTrue();
        assertThat(r.problems()).singleElement().asString().contains("chromium-driver are not installed");
    }

    @Test
    void shouldCollectResultLinesWhenSuiteMainsPrintThem() {
        Results r = new Results();
        Extract.into(r, step(Step.Kind.BASELINE, 0), """
                RESULT baseline.producer.records_per_s 120000.500 records/s
                  tool: 200000 records sent
                RESULT baseline.producer.records_per_s 90000.000 records/s
                RESULT baseline.roundtrip.p99_ms 7.000 ms
                """);

        assertThat(r.get("baseline.producer.records_per_s").orElseThrow())
                .extracting(Figure::min, Figure::max, Figure::n)
                .containsExactly(90000.0, 120000.5, 2);
        assertThat(r.get("baseline.roundtrip.p99_ms").orElseThrow().render("ms"))
                .isEqualTo("7.00 ms (1 run)");
    }

    @Test
    void shouldJudgeTheFlexibleDecisionP99OnItsWorstRoundBesideTheRawRoundTrip() {
        Results r = new Results();
        // The run of 2026-11-28 06:01 UTC (1,000 GPUs, 4-s rounds), its RESULT lines as printed.
        Extract.into(r, step(Step.Kind.FLEX, 0), """
                RESULT flex.fixed_p50_ms 3557.375 ms
                RESULT flex.fixed_p99_ms 6189.055 ms
                RESULT flex.fixed_p999_ms 6250.495 ms
                RESULT flex.raw_p99_ms 66.175 ms
                RESULT flex.fixed_p50_ms 2177.023 ms
                RESULT flex.fixed_p99_ms 5468.159 ms
                RESULT flex.fixed_p999_ms 5505.023 ms
                RESULT flex.raw_p99_ms 86.399 ms
                RESULT flex.fixed_p50_ms 40173.567 ms
                RESULT flex.fixed_p99_ms 195690.495 ms
                RESULT flex.fixed_p999_ms 197787.647 ms
                RESULT flex.raw_p99_ms 14.319 ms
                """);

        Targets.Row flex = new Targets(r)
                .rows().stream()
                        .filter(row -> row.target().startsWith("flexible MIG decision p99"))
                        .findFirst()
                        .orElseThrow();
        assertThat(flex.met()).isEqualTo("**no**");
        assertThat(flex.measured()).startsWith("6,189 ms (5,468–195,690, 3 rounds)");
        assertThat(flex.baseline()).contains("raw produce→consume p99 66.2 ms (14.3–86.4, 3 rounds)");
    }

    @Test
    void shouldJudgeTheNoShowReplayCorrectOnlyWhenBothFleetsReleasedExactlyTheUnusedBookings() {
        Results r = new Results();
        // The quick run of 03:29 UTC (no-show-output.txt) with the local fleet's figures made wrong.
        Extract.into(r, step(Step.Kind.NO_SHOW, 0), """
                RESULT noshow.openb.booked_gpu_h 58853.1 GPU-h
                RESULT noshow.openb.returned_gpu_h 15708.5 GPU-h
                RESULT noshow.openb.released 539 bookings
                RESULT noshow.openb.expected 343 bookings
                RESULT noshow.openb.used_released 0 bookings
                RESULT noshow.openb.correct 1
                RESULT noshow.local16.booked_gpu_h 31899.0 GPU-h
                RESULT noshow.local16.returned_gpu_h 13926.0 GPU-h
                RESULT noshow.local16.released 13 bookings
                RESULT noshow.local16.expected 11 bookings
                RESULT noshow.local16.used_released 1 bookings
                RESULT noshow.local16.correct 0
                RESULT noshow.lifecycle.raw_p99_ms 74.6 ms
                RESULT noshow.lifecycle.fixed_p99_ms 66.8 ms
                RESULT noshow.lifecycle.p99_ratio 0.90 x
                """);

        List<Targets.Row> rows = new Targets(r).rows();
        Targets.Row noShow = rows.stream()
                .filter(row -> row.target().startsWith("no-show release"))
                .findFirst()
                .orElseThrow();
        assertThat(noShow.met()).isEqualTo("**no**");
        assertThat(noShow.measured())
                .contains("openb fleet: 15,709 of 58,853 GPU-h booked returned, 539 no-shows released of 343")
                .contains("used ones released 1");
        assertThat(rows.stream().filter(row -> row.target().contains("lifecycle on")))
                .singleElement()
                .satisfies(row -> assertThat(row.baseline()).contains("raw produce→consume p99 74.6"));
    }

    @Test
    void shouldReportTheProblemWhenTheStackRanWithoutAService() {
        Results r = new Results();
        Extract.into(r, step(Step.Kind.SCALE, 16), """
                PROBLEM idle-reclaimer is not built (no main class or classpath.txt in its target/): left out
                RESULT scale.16g.2t.ready_s 20.5 s
                """);

        assertThat(r.problems()).singleElement().asString().startsWith("idle-reclaimer is not built");
        assertThat(r.get("scale.16g.2t.ready_s")).isPresent();
    }

    @Test
    void shouldReadEveryMigFigureWithItsBasisWhenTheMigReplayReports() throws IOException {
        Results r = new Results();
        Extract.into(r, step(Step.Kind.MIG, 0), resource("mig-output.txt"));

        assertThat(r.get("mig.trace.arrivals.32g.flexible_pct").orElseThrow())
                .extracting(Figure::median, Figure::n, Figure::basis)
                .containsExactly(44.104, 1, "replay");
        assertThat(r.get("mig.policy.arrivals.32g.first_half_pct").orElseThrow().median())
                .isEqualTo(86.0874);
        assertThat(r.get("mig.trace.arrivals.64g.relayouts_per_gpu_day")
                        .orElseThrow()
                        .median())
                .isEqualTo(0.1314);
        assertThat(r.get("mig.cost.1000g.flexible_p50_us").orElseThrow())
                .extracting(Figure::n, Figure::basis)
                .containsExactly(3, "rounds");
        assertThat(r.problems()).isEmpty();
    }

    @Test
    void shouldRecordTheReasonAndNoFigureWhenTheMigReplayHadNoTrace() {
        Results r = new Results();
        Extract.into(
                r,
                step(Step.Kind.MIG, 0),
                "PROBLEM mig-replay: skipped: the openb pod list is not at /nowhere/openb-pod-list.csv (…)\n");

        assertThat(r.isEmpty()).isTrue();
        assertThat(r.problems()).singleElement().asString().startsWith("mig-replay: skipped");
    }
}
