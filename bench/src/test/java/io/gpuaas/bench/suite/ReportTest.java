package io.gpuaas.bench.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** BENCHMARKS.md is generated: the targets table must be filled from the figures, never empty or invented. */
class ReportTest {

    static Results everyBench() throws IOException {
        Results r = new Results();
        Extract.into(r, ExtractTest.step(Step.Kind.BOOKING, 0), ExtractTest.resource("booking-output.md"));
        Extract.into(r, ExtractTest.step(Step.Kind.NO_SHOW, 0), ExtractTest.resource("no-show-output.txt"));
        Extract.into(r, ExtractTest.step(Step.Kind.DASHBOARD, 0), ExtractTest.resource("dashboard-output.txt"));
        Extract.into(r, ExtractTest.step(Step.Kind.FLEX, 0), ExtractTest.resource("flex-output.txt"));
        Extract.into(r, ExtractTest.step(Step.Kind.QUOTA, 1000), ExtractTest.resource("quota-output.md"));
        Extract.into(r, ExtractTest.step(Step.Kind.QUOTA, 1000), """
                | measurement | n | min ms | p50 ms | p90 ms | p99 ms | max ms |
                |---|---|---|---|---|---|---|
                | baseline: raw create → watch event (same API server), one core busy | 200 | 1 | 2 | 9 | 21.0 | 50 |
                | baseline: raw create at each instant, same spread (no projector), one core busy | 1000 | 2 | 3 | 6 | 14.0 | 40 |
                | boundary → ClusterQueue, starts spread over 20 s, one core busy | 1000 | 3 | 9 | 30 | 61.0 | 90 |
                | boundary → ClusterQueue, 200 starts on one instant, one core busy | 200 | 20 | 200 | 300 | 333.0 | 340 |
                """);
        Extract.into(r, ExtractTest.step(Step.Kind.RECLAIM, 10000), ExtractTest.resource("reclaim-output.txt"));
        Extract.into(r, ExtractTest.step(Step.Kind.REPLAY, 0), ExtractTest.resource("replay-output.txt"));
        Extract.into(r, ExtractTest.step(Step.Kind.MIG, 0), ExtractTest.resource("mig-output.txt"));
        Extract.into(r, ExtractTest.step(Step.Kind.INGEST, 10000), ExtractTest.resource("ingest-output.txt"));
        Extract.into(
                r, ExtractTest.step(Step.Kind.REMOTE_WRITE, 10000), ExtractTest.resource("remote-write-output.txt"));
        Extract.into(r, ExtractTest.step(Step.Kind.RENDER, 10000), ExtractTest.resource("render-output.txt"));
        Extract.into(r, ExtractTest.step(Step.Kind.BASELINE, 0), """
                RESULT baseline.producer.records_per_s 300000 records/s
                RESULT baseline.consumer.records_per_s 500000 records/s
                RESULT baseline.roundtrip.p99_ms 4 ms
                """);
        Extract.into(r, ExtractTest.step(Step.Kind.SCALE, 16), """
                RESULT scale.16g.2t.ready_s 19.0 s
                RESULT scale.16g.2t.heap_mib.metrics-gateway 21.5 MiB
                RESULT scale.16g.2t.rss_mib.metrics-gateway 250.0 MiB
                """);
        return r;
    }

    static Report.Inputs inputs(Results results) {
        Machine m =
                new Machine(2, "AMD EPYC", 24.0, "Temurin 25", "0.50 0.40 0.30", Instant.parse("2026-11-22T15:00:00Z"));
        return new Report.Inputs(
                false,
                m,
                m,
                Duration.ofMinutes(25),
                results,
                Map.of("booking", "## booking-service\n"),
                "`bench/reliability` does not exist yet.");
    }

    @Test
    void shouldFillEveryTargetWithAMeasuredFigureWhenEveryBenchReported() throws IOException {
        List<Targets.Row> rows = new Targets(everyBench()).rows();

        assertThat(rows).hasSizeGreaterThanOrEqualTo(14);
        assertThat(rows).allSatisfy(row -> assertThat(row.measured()).doesNotContain("not measured"));
        assertThat(rows)
                .filteredOn(row -> row.target().startsWith("booking decision p99"))
                .singleElement()
                .satisfies(row -> {
                    assertThat(row.measured()).isEqualTo("25.9 ms (24.2–44.0, 3 runs)");
                    assertThat(row.met()).isEqualTo("yes");
                    assertThat(row.baseline())
                            .contains("1.60 ms (1.20–2.40, 3 runs)")
                            .contains("kafka-tools EndToEndLatency p99 4.00 ms");
                });
        assertThat(rows)
                .filteredOn(row -> row.target().startsWith("booking decisions ≥"))
                .singleElement()
                .extracting(Targets.Row::met)
                .isEqualTo("yes");
        assertThat(rows)
                .filteredOn(row -> row.target().startsWith("openb replay with monthly GPU-hour budgets"))
                .singleElement()
                .satisfies(row -> {
                    assertThat(row.measured()).contains("at most 100 % of a budget booked, 188 refused for budget");
                    assertThat(row.met()).isEqualTo("yes");
                    assertThat(row.baseline()).startsWith("raw produce→consume p99 174 ms");
                });
        assertThat(rows)
                .filteredOn(row -> row.target().startsWith("/metrics render"))
                .singleElement()
                .extracting(Targets.Row::met)
                .isEqualTo("yes");
        assertThat(rows)
                .filteredOn(row -> row.target().startsWith("duty-cycle"))
                .singleElement()
                .extracting(Targets.Row::measured)
                .asString()
                .contains("0 rejected, 0 missed");
    }

    @Test
    void shouldRenderTheTargetsMachineAndGrowthWhenWritingBenchmarksMd() throws IOException {
        String md = Report.render(inputs(everyBench()));

        assertThat(md)
                .doesNotContain("{{")
                .contains("| cores | 2 |")
                .contains("AMD EPYC")
                .contains("## Targets at a glance")
                .contains("| booking decisions ≥ 1,000/s (saturated) | 8,373 /s")
                .contains("### By fleet size (GPUs)")
                .contains("| 10,000 | 55,702 (42,714–66,623, 5 rounds)")
                .contains("### By tenants")
                .contains("| 16 | 2 | 19.0 |")
                .contains("## booking-service")
                .contains("`bench/reliability` does not exist yet.");
        long targetRows = md.lines()
                .dropWhile(l -> !l.equals("## Targets at a glance"))
                .skip(4)
                .takeWhile(l -> l.startsWith("|"))
                .count();
        assertThat(targetRows).isGreaterThanOrEqualTo(14);
    }

    @Test
    void shouldRefuseToWriteWhenTheRunMeasuredNothing() {
        assertThatThrownBy(() -> Report.render(inputs(new Results()))).hasMessageContaining("measured nothing");
    }

    @Test
    void shouldSayNotMeasuredRatherThanInventWhenABenchIsMissing() throws IOException {
        Results r = new Results();
        Extract.into(r, ExtractTest.step(Step.Kind.BOOKING, 0), ExtractTest.resource("booking-output.md"));

        List<Targets.Row> rows = new Targets(r).rows();

        assertThat(rows)
                .filteredOn(row -> row.target().startsWith("reclaimer device samples"))
                .singleElement()
                .satisfies(row -> assertThat(row.measured()).startsWith("not measured"));
        assertThat(Report.render(inputs(r)))
                .contains("Nothing measured at several sizes")
                .doesNotContain("| 10,000 |");
    }

    @Test
    void shouldJudgeTheMigTargetsOnThePolicyReplayAndShowTheTraceBesideIt() throws IOException {
        List<Targets.Row> rows = new Targets(everyBench()).rows();

        assertThat(rows)
                .filteredOn(row -> row.target().startsWith("flexible MIG ≥ static layout chosen on the first half"))
                .singleElement()
                .satisfies(row -> {
                    assertThat(row.measured())
                            .startsWith("95.9 % vs 86.1 % (+9.8 points)")
                            .contains("(`trace`, pods longer than max-duration held: 44.1 % vs 47.5 % (-3.4 points))");
                    assertThat(row.met()).isEqualTo("yes");
                    assertThat(row.baseline()).contains("today's static layout 45.7 %");
                });
        assertThat(rows)
                .filteredOn(row -> row.target().startsWith("flexible MIG never below the best static"))
                .singleElement()
                .satisfies(row -> {
                    assertThat(row.measured())
                            .contains("32 GPUs: 95.9 % vs 93.6 %")
                            .contains("64 GPUs: 100.0 % vs 100.0 %")
                            .contains("held: 44.1 % vs 51.0 %");
                    assertThat(row.met()).isEqualTo("yes");
                });
    }
}
