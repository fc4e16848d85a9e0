package io.gpuaas.metrics.ledger;

import static io.gpuaas.metrics.ledger.LedgerRecords.POOLS;
import static io.gpuaas.metrics.ledger.LedgerRecords.booking;
import static io.gpuaas.metrics.ledger.LedgerRecords.confirmed;
import static io.gpuaas.metrics.ledger.LedgerRecords.scrape;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.usage.UsageDaily;
import io.gpuaas.events.usage.UsageDaily.BookingDay;
import io.gpuaas.events.usage.UsageDaily.Figures;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which topic records a snapshot serves, and how: sealed as is, BASE + DELTA, or BASE alone. */
class ServedDaysTest {

    private static final Instant T10 = Instant.parse("2026-11-22T10:00:00Z");
    private static final String KEY = "team-a/2026-11-22";
    private static final Figures BASE = new Figures(1.0, 0, 0.25, 0, 0, 0);

    private final LedgerInputs inputs = new LedgerInputs(POOLS, 0.05, Duration.ofSeconds(30));

    private static UsageDaily record(Instant cut, Boolean sealed) {
        return record(cut, sealed, UsageDaily.GPU_SHARE);
    }

    private static UsageDaily record(Instant cut, Boolean sealed, String migWeighting) {
        return new UsageDaily(
                "team-a",
                "2026-11-22",
                Map.of("h200", BASE),
                BASE,
                3,
                cut,
                sealed,
                List.of(new BookingDay("bk-1", "h200", BASE)),
                cut,
                migWeighting);
    }

    private Ledger ledger(UsageDaily topic) {
        inputs.horizon(T10);
        inputs.apply(confirmed(booking("bk-1", "team-a", "h200", 1, T10.minusSeconds(3600), T10.plusSeconds(3600))));
        // This replica's samples start at 10:00 (its horizon), busy until 10:10.
        for (Instant t = T10; !t.isAfter(T10.plusSeconds(600)); t = t.plusSeconds(30)) {
            inputs.apply(scrape("n1", "GPU-1", "h200", "team-a", t, 0.9));
        }
        return LedgerSnapshots.compute(
                inputs.copy(), Map.of(KEY, topic), new Sealing(Duration.ofHours(1), Duration.ZERO));
    }

    @Test
    void shouldServeTheRecordAloneWhenItsCutIsBeforeTheReplicasHorizon() {
        Ledger ledger = ledger(record(T10.minusSeconds(60), null));

        assertThat(ledger.baseOnly()).containsExactly(KEY);
        assertThat(ledger.records().get(KEY).total())
                .as("the fold's 10 busy minutes are not added")
                .isEqualTo(BASE);
    }

    @Test
    void shouldAddTheFoldFromTheCutWhenTheCutIsAtTheHorizonOrLater() {
        Ledger ledger = ledger(record(T10.plusSeconds(300), null));

        assertThat(ledger.baseOnly()).isEmpty();
        UsageDaily now = ledger.records().get(KEY);
        assertThat(now.cut()).isEqualTo(T10.plusSeconds(600));
        // 10:05-10:10: 5 busy minutes (the 10:10 reading is not charged yet) and 5 booked minutes.
        assertThat(now.total().busy()).isEqualTo(0.333333);
        assertThat(now.total().booked()).isEqualTo(1.083333);
    }

    @Test
    void shouldServeTheRecordAloneWhenItWasWeighedBeforeTheGpuShareMarker() {
        UsageDaily weighedN7 = record(T10.plusSeconds(300), null, null);

        Ledger ledger = ledger(weighedN7);

        assertThat(ledger.baseOnly())
                .as("1/k DELTA is not added to N/7 figures")
                .containsExactly(KEY);
        assertThat(ledger.records().get(KEY)).isEqualTo(weighedN7);
    }

    @Test
    void shouldMarkTheRecordGpuShareWhenItAddsTheFoldFromTheCut() {
        Ledger ledger = ledger(record(T10.plusSeconds(300), null));

        assertThat(ledger.records().get(KEY).migWeighting()).isEqualTo(UsageDaily.GPU_SHARE);
    }

    @Test
    void shouldServeASealedRecordAsItIsWhateverTheFoldHolds() {
        UsageDaily sealed = record(T10.plusSeconds(300), true);

        Ledger ledger = ledger(sealed);

        assertThat(ledger.baseOnly()).isEmpty();
        assertThat(ledger.records().get(KEY)).isEqualTo(sealed);
        assertThat(ledger.served().get(KEY)).isEqualTo(sealed);
    }
}
