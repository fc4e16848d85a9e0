package io.gpuaas.metrics.ledger;

import static io.gpuaas.metrics.ledger.LedgerRecords.POOLS;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.gpu.GpuActivity;
import io.gpuaas.events.gpu.GpuScrape;
import java.time.Instant;
import java.util.List;
import java.util.NavigableMap;
import org.junit.jupiter.api.Test;

/** The ledger's busy/idle split follows the reclaimer's rule (events' GpuActivity). */
class SampleBucketsTest {

    private static final Instant T0 = Instant.parse("2026-11-22T12:00:00Z");

    private final SampleBuckets buckets = new SampleBuckets(POOLS, GpuActivity.DEFAULT_IDLE_THRESHOLD, 30_000);

    @Test
    void shouldCountSmallKernelsAndVideoDecodeBusyAndAnEmptyGpuIdleWhenTheDefaultThresholdSplits() {
        feed("GPU-kernels", 0.044, null);
        feed("GPU-decode", 0.0002, 46.0);
        feed("GPU-empty", 0.0003, 0.0);

        NavigableMap<Long, long[]> minutes = buckets.copy().values().iterator().next();
        long[] busyIdle = minutes.firstEntry().getValue();
        assertThat(busyIdle[0]).as("busy ms").isEqualTo(2 * 10_000);
        assertThat(busyIdle[1]).as("idle ms").isEqualTo(10_000);
    }

    private void feed(String uuid, double utilization, Double decoder) {
        for (int second = 0; second <= 10; second += 10) {
            String pool = LedgerRecords.pool("h200").id();
            GpuScrape one = LedgerRecords.scrape("node-1", uuid, pool, "team-a", T0.plusSeconds(second), utilization);
            GpuScrape.Device d = one.devices().getFirst().withMedia(decoder, null);
            buckets.apply(new GpuScrape(one.time(), one.node(), one.target(), List.of(d)));
        }
    }
}
