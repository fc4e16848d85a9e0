package io.gpuaas.bench.suite;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/** The remote-write bench's figures, read from its real output (remote-write-output.txt, a full suite run). */
class RemoteWriteExtractTest {

    @Test
    void shouldReadRatesAndTheRatioFromTheSummaryWhenThePerRoundTableComesFirst() throws IOException {
        Results r = new Results();
        Extract.into(
                r, ExtractTest.step(Step.Kind.REMOTE_WRITE, 10000), ExtractTest.resource("remote-write-output.txt"));

        assertThat(r.get("remote_write.10000g.ratio").orElseThrow())
                .extracting(Figure::median, Figure::min, Figure::max, Figure::n)
                .containsExactly(0.52, 0.29, 0.73, 5);
        assertThat(r.get("remote_write.10000g.ingested_series_per_s").orElseThrow())
                .extracting(Figure::median, Figure::min, Figure::max)
                .containsExactly(836977.0, 321281.0, 1325241.0);
        assertThat(r.get("remote_write.10000g.ingested_devices_per_s")
                        .orElseThrow()
                        .median())
                .isEqualTo(192090.0);
        assertThat(r.get("remote_write.10000g.bare_series_per_s").orElseThrow().median())
                .isEqualTo(1625009.0);
        assertThat(r.get("remote_write.10000g.bare_devices_per_s").orElseThrow().max())
                .isEqualTo(524666.0);
    }

    @Test
    void shouldJudgeTheRatioTargetOnItsWorstAndBestRound() throws IOException {
        Results r = new Results();
        Extract.into(
                r, ExtractTest.step(Step.Kind.REMOTE_WRITE, 10000), ExtractTest.resource("remote-write-output.txt"));

        Targets.Row row = new Targets(r)
                .rows().stream()
                        .filter(t -> t.target().startsWith("remote-write ingested"))
                        .findFirst()
                        .orElseThrow();

        assertThat(row.target()).endsWith("(10000 GPUs)");
        assertThat(row.met()).startsWith("**partly**");
        assertThat(row.measured()).startsWith("0.520 ×");
        assertThat(row.baseline()).contains("bare decode, same run: series samples 1,625,009 /s");
    }
}
