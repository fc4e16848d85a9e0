package io.gpuaas.metrics.ledger;

import static io.gpuaas.metrics.ledger.LedgerRecords.POOLS;
import static io.gpuaas.metrics.ledger.LedgerRecords.admitted;
import static io.gpuaas.metrics.ledger.LedgerRecords.booking;
import static io.gpuaas.metrics.ledger.LedgerRecords.confirmed;
import static io.gpuaas.metrics.ledger.LedgerRecords.finished;
import static io.gpuaas.metrics.ledger.LedgerRecords.scrape;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.usage.UsageDaily.Figures;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The calculator's figures from a cut on (a new leader's DELTA): what straddles the cut counts once. */
class LedgerCutTest {

    private static final Instant T10 = Instant.parse("2026-11-22T10:00:00Z");
    private static final long CUT = T10.plusSeconds(300).toEpochMilli(); // 10:05
    private static final LocalDate DAY = LocalDate.parse("2026-11-22");

    private final LedgerInputs inputs = new LedgerInputs(POOLS, 0.05, Duration.ofSeconds(30));

    private Figures figures(long from, long until) {
        return new LedgerCalculator(inputs.copy(), Long.MAX_VALUE)
                .compute(from, until)
                .get("bk-1")
                .figures(DAY);
    }

    @Test
    void shouldCountASpanAndASampleMinuteStraddlingTheCutOnceWhenSplitThere() {
        Booking b = booking("bk-1", "team-a", "h200", 2, T10, T10.plus(Duration.ofHours(1)));
        inputs.apply(confirmed(b));
        // Admitted 10:02 to 10:08: 3 min before the cut, 3 min after.
        inputs.apply("wl-1", admitted(b.namespace(), "wl-1", "h200", 1, T10.plusSeconds(120)));
        inputs.apply("wl-1", finished(b.namespace(), "wl-1", "h200", 1, T10.plusSeconds(480)));
        // A reading at 10:04:50, closed 30 s later: its 30 s reach into 10:05 but belong to minute 10:04.
        inputs.apply(scrape("n1", "GPU-1", "h200", b.namespace(), T10.plusSeconds(290), 0.9));
        inputs.apply(scrape("n1", "GPU-1", "h200", b.namespace(), T10.plusSeconds(320), 0.9));
        inputs.apply(scrape("n1", "GPU-1", "h200", b.namespace(), T10.plusSeconds(350), 0.0));
        inputs.apply(scrape("n1", "GPU-1", "h200", b.namespace(), T10.plusSeconds(600), 0.0));

        Figures before = figures(Long.MIN_VALUE, CUT);
        Figures after = figures(CUT, Long.MAX_VALUE);
        Figures whole = figures(Long.MIN_VALUE, Long.MAX_VALUE);

        assertThat(before.admitted()).isEqualTo(180.0 / 3600);
        assertThat(after.admitted()).isEqualTo(180.0 / 3600);
        assertThat(before.busy()).as("minute 10:04 only").isEqualTo(30.0 / 3600);
        // 10:05:20 busy 30 s; 10:05:50 idle capped at the 30 s max gap
        assertThat(after.busy()).isEqualTo(30.0 / 3600);
        assertThat(after.idle()).isEqualTo(30.0 / 3600);
        assertThat(before.booked()).as("2 units, 10:00 to 10:05").isEqualTo(2 * 300.0 / 3600);
        assertThat(after.booked()).isEqualTo(2 * 3300.0 / 3600);
        Figures sum = before.plus(after);
        assertThat(new double[] {sum.booked(), sum.admitted(), sum.busy(), sum.idle()})
                .containsExactly(
                        new double[] {whole.booked(), whole.admitted(), whole.busy(), whole.idle()}, within(1e-12));
    }

    @Test
    void shouldCountNothingFromACutAfterTheEndOfTheComputation() {
        inputs.apply(confirmed(booking("bk-1", "team-a", "h200", 1, T10, T10.plus(Duration.ofHours(1)))));

        Map<String, BookingLedger> none = new LedgerCalculator(inputs.copy(), Long.MAX_VALUE).compute(CUT, CUT - 1);

        assertThat(none.get("bk-1").days()).isEmpty();
    }
}
