package io.gpuaas.bench.baseline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Summaries as kafka-tools 4.1.1 prints them (captured from runs of KafkaBaseline on this machine). */
class ToolOutputTest {

    @Test
    void shouldReadTheFinalSummaryWhenProducerPerformancePrintsProgressLines() {
        String out = """
                152611 records sent, 30510.1 records/sec (14.90 MB/sec), 1391.2 ms avg latency, 2144.0 ms max latency.
                200000 records sent, 33366.700033 records/sec (16.29 MB/sec), 1279.66 ms avg latency, 2144.00 ms max latency, 1352 ms 50th, 2007 ms 95th, 2102 ms 99th, 2136 ms 99.9th.
                """;

        assertThat(ToolOutput.producer(out)).isEqualTo(new ToolOutput.Producer(33366.700033, 2102));
    }

    @Test
    void shouldFindTheFiguresWhenLogLinesFallBetweenHeaderAndRow() {
        String out = """
                start.time, end.time, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec, rebalance.time.ms, fetch.time.ms, fetch.MB.sec, fetch.nMsg.sec
                15:05:57.001 INFO  [main] o.a.k.c.c.internals.ConsumerCoordinator - joined group
                2026-11-22 15:05:56:464, 2026-11-22 15:05:59:416, 14.7729, 5.0044, 30255, 10248.9837, 1116, 1836, 8.0463, 16478.7582
                """;

        assertThat(ToolOutput.consumer(out).recordsPerSecond()).isEqualTo(10248.9837);
    }

    @Test
    void shouldReadAverageAndPercentilesWhenEndToEndLatencyFinishes() {
        String out = "Avg latency: 3.1234 ms\nPercentiles: 50th = 2, 99th = 9, 99.9th = 15\n";

        assertThat(ToolOutput.endToEnd(out)).isEqualTo(new ToolOutput.EndToEnd(3.1234, 2, 9));
    }

    @Test
    void shouldFailLoudlyWhenAToolPrintedNoSummary() {
        assertThatThrownBy(() -> ToolOutput.producer("usage: producer-performance"))
                .hasMessageContaining("no ProducerPerformance");
    }
}
