package io.gpuaas.metrics.ledger;

import static io.gpuaas.metrics.ledger.LedgerRecords.POOLS;
import static io.gpuaas.metrics.ledger.LedgerRecords.activated;
import static io.gpuaas.metrics.ledger.LedgerRecords.booking;
import static io.gpuaas.metrics.ledger.LedgerRecords.confirmed;
import static io.gpuaas.metrics.ledger.LedgerRecords.scrape;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.notice.Notice;
import io.gpuaas.metrics.config.UnderuseSettings;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UnderuseCheckTest {

    static final Instant T10 = Instant.parse("2026-11-22T10:00:00Z");
    private static final Sealing SEALING = new Sealing(Duration.ofHours(1), Duration.ofMinutes(5));

    /**
     * bk-lazy busy only until 10:10, bk-busy busy throughout, bk-late booked from 10:30: samples every 30 s to
     * {@code until}, so the cut is {@code until - 5 min}.
     */
    static LedgerInputs inputs(Instant until) {
        LedgerInputs inputs = new LedgerInputs(POOLS, 0.05, Duration.ofSeconds(30));
        hold(inputs, lazy());
        hold(inputs, booking("bk-busy", "team-b", "h200", 1, T10, T10.plusSeconds(4 * 3600)));
        hold(inputs, booking("bk-late", "team-c", "h200", 1, T10.plusSeconds(1800), T10.plusSeconds(9000)));
        for (Instant t = T10; !t.isAfter(until); t = t.plusSeconds(30)) {
            inputs.apply(scrape("n1", "GPU-1", "h200", "team-a", t, t.isBefore(T10.plusSeconds(600)) ? 0.9 : 0.0));
            inputs.apply(scrape("n2", "GPU-2", "h200", "team-b", t, 0.9));
            inputs.apply(scrape("n3", "GPU-3", "h200", "team-c", t, 0.0));
        }
        return inputs;
    }

    /** A booking confirmed and then activated at its start, as the decision engine's events have it. */
    private static void hold(LedgerInputs inputs, Booking booking) {
        inputs.apply(confirmed(booking));
        inputs.apply(activated(booking));
    }

    static Booking lazy() {
        return booking("bk-lazy", "team-a", "h200", 1, T10, T10.plusSeconds(4 * 3600));
    }

    private static Ledger ledger(Instant until) {
        return LedgerSnapshots.compute(inputs(until).copy(), Map.of(), SEALING);
    }

    @Test
    void shouldNoticeOnlyTheBookingBusyBelowTheThresholdOverTheWholeLastHourWithItsFigures() {
        Ledger ledger = ledger(T10.plusSeconds(4200)); // 11:10, cut 11:05

        assertThat(UnderuseCheck.at(ledger, UnderuseSettings.defaults()))
                .singleElement()
                .isEqualTo(new Notice.BookingUnderused(
                        "bk-lazy/booking-underused@2026-11-22T10:00:00Z",
                        "bk-lazy",
                        "team-a",
                        "team-a",
                        "h200",
                        1,
                        0.083333,
                        0.2,
                        0.083333,
                        1.0,
                        T10.plusSeconds(300),
                        Duration.ofHours(1),
                        T10.plusSeconds(3900)));
    }

    @Test
    void shouldKeepOneIdPerSuppressionPeriodWhenTheCutMovesOn() {
        UnderuseSettings hourly =
                new UnderuseSettings(true, 0.2, Duration.ofHours(1), Duration.ofHours(1), Duration.ofMinutes(1));

        assertThat(ids(ledger(T10.plusSeconds(4200)), UnderuseSettings.defaults()))
                .containsExactly("bk-lazy/booking-underused@2026-11-22T10:00:00Z");
        assertThat(ids(ledger(T10.plusSeconds(6000)), UnderuseSettings.defaults()))
                .as("cut 11:35: bk-late has now held a whole hour too")
                .containsExactly(
                        "bk-late/booking-underused@2026-11-22T10:30:00Z",
                        "bk-lazy/booking-underused@2026-11-22T10:00:00Z");
        assertThat(ids(ledger(T10.plusSeconds(6000)), hourly))
                .as("hourly periods: the cut is in each booking's second one")
                .containsExactly(
                        "bk-late/booking-underused@2026-11-22T11:30:00Z",
                        "bk-lazy/booking-underused@2026-11-22T11:00:00Z");
    }

    private static java.util.List<String> ids(Ledger ledger, UnderuseSettings settings) {
        return UnderuseCheck.at(ledger, settings).stream()
                .map(Notice.BookingUnderused::noticeId)
                .toList();
    }

    @Test
    void shouldSayNothingBeforeABookingHeldAWholeWindow() {
        Ledger ledger = ledger(T10.plusSeconds(3000)); // cut 10:45: bk-lazy held only 45 minutes

        assertThat(UnderuseCheck.at(ledger, UnderuseSettings.defaults())).isEmpty();
    }

    @Test
    void shouldNotCheckABookingThatIsOnlyConfirmedWhenItNeverStarted() {
        LedgerInputs inputs = inputs(T10.plusSeconds(4200)); // cut 11:05
        // Its window covers the last hour, yet it was never activated (no start seen): nothing of it is in use.
        inputs.apply(confirmed(booking("bk-upcoming", "team-d", "h200", 1, T10, T10.plusSeconds(4 * 3600))));

        Ledger ledger = LedgerSnapshots.compute(inputs.copy(), Map.of(), SEALING);

        assertThat(ids(ledger, UnderuseSettings.defaults()))
                .containsExactly("bk-lazy/booking-underused@2026-11-22T10:00:00Z");
    }
}
