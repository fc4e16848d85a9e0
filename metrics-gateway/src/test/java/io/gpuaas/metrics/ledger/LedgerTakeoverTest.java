package io.gpuaas.metrics.ledger;

import static io.gpuaas.metrics.ledger.LedgerRecords.POOLS;
import static io.gpuaas.metrics.ledger.LedgerRecords.booking;
import static io.gpuaas.metrics.ledger.LedgerRecords.confirmed;
import static io.gpuaas.metrics.ledger.LedgerRecords.scrape;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.events.usage.UsageDaily;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A leader change mid-day: the old leader's record (BASE) plus the new leader's fold from its cut (DELTA) must add up
 * to what one replica that saw everything counts, although a sample's gap is charged only when the device's next
 * reading arrives.
 */
class LedgerTakeoverTest {

    private static final Instant T10 = Instant.parse("2026-11-22T10:00:00Z");
    private static final String KEY = "team-a/2026-11-22";
    private static final Booking BOOKING =
            booking("bk-1", "team-a", "h200", 1, T10.minusSeconds(3600), T10.plusSeconds(7200));

    /** GPU-1 busy every 30 s from 10:00:00 to 10:09:00, then at 10:09:55; another node's scrape at 10:10:05. */
    private static List<GpuScrape> beforeTakeover() {
        List<GpuScrape> scrapes = new ArrayList<>();
        for (Instant t = T10; t.isBefore(T10.plusSeconds(570)); t = t.plusSeconds(30)) {
            scrapes.add(scrape("n1", "GPU-1", "h200", "team-a", t, 0.9));
        }
        scrapes.add(scrape("n1", "GPU-1", "h200", "team-a", T10.plusSeconds(595), 0.9));
        scrapes.add(scrape("n2", "GPU-2", "h200", "nobody", T10.plusSeconds(605), 0.0));
        return scrapes;
    }

    /** GPU-1 busy every 30 s from 10:10:25 to 10:20:25 (the first closes the 10:09:55 gap); n2 at 10:30:00. */
    private static List<GpuScrape> afterTakeover() {
        List<GpuScrape> scrapes = new ArrayList<>();
        for (Instant t = T10.plusSeconds(625); !t.isAfter(T10.plusSeconds(1225)); t = t.plusSeconds(30)) {
            scrapes.add(scrape("n1", "GPU-1", "h200", "team-a", t, 0.9));
        }
        scrapes.add(scrape("n2", "GPU-2", "h200", "nobody", T10.plusSeconds(1800), 0.0));
        return scrapes;
    }

    private static UsageDaily record(LedgerInputs inputs, Map<String, UsageDaily> topic, Sealing sealing) {
        return LedgerSnapshots.compute(inputs.copy(), topic, sealing).records().get(KEY);
    }

    /** The last record of the day after replica A published at 10:10:05 and B, whose samples start at 10:04, took over. */
    private static UsageDaily afterLeaderChange(Sealing sealing) {
        LedgerInputs a = new LedgerInputs(POOLS, 0.05, Duration.ofSeconds(30));
        a.apply(confirmed(BOOKING));
        beforeTakeover().forEach(a::apply);
        UsageDaily published = record(a, Map.of(), sealing);

        LedgerInputs b = new LedgerInputs(POOLS, 0.05, Duration.ofSeconds(30));
        b.horizon(T10.plusSeconds(240));
        b.apply(confirmed(BOOKING));
        beforeTakeover().stream()
                .filter(s -> !s.time().isBefore(T10.plusSeconds(240)))
                .forEach(b::apply);
        afterTakeover().forEach(b::apply);
        return record(b, Map.of(KEY, published), sealing);
    }

    @Test
    void shouldSumToTheWholeFoldsFiguresWhenTheOldLeaderPublishedWithADevicesGapStillOpen() {
        Sealing sealing = new Sealing(Duration.ofHours(1), Duration.ofMinutes(5));
        LedgerInputs whole = new LedgerInputs(POOLS, 0.05, Duration.ofSeconds(30));
        whole.apply(confirmed(BOOKING));
        beforeTakeover().forEach(whole::apply);
        afterTakeover().forEach(whole::apply);
        UsageDaily expected = record(whole, Map.of(), sealing);

        UsageDaily sum = afterLeaderChange(sealing);

        assertThat(sum.cut()).as("10:30:00 - 5 min").isEqualTo(T10.plusSeconds(1500));
        assertThat(sum.total())
                .as("A's figures up to 10:05 plus B's from 10:05 on")
                .isEqualTo(expected.total());
        // 10:00-10:20: every minute busy (10:09 = 30 s from 10:09:00, capped at max-gap, + 30 s from 10:09:55).
        assertThat(sum.total().busy()).isEqualTo(0.333333);
    }

    @Test
    void shouldLoseTheOpenGapWhenTheCutIsTheMinuteOfAsOf() {
        UsageDaily sum = afterLeaderChange(new Sealing(Duration.ofHours(1), Duration.ZERO));

        assertThat(sum.total().busy())
                .as("A's record stopped at 10:10 without the 10:09:55 reading's 30 s, B starts at 10:10")
                .isEqualTo(0.325);
    }
}
