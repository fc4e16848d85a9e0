package io.gpuaas.metrics.ledger;

import static io.gpuaas.metrics.ledger.LedgerRecords.POOLS;
import static io.gpuaas.metrics.ledger.LedgerRecords.booking;
import static io.gpuaas.metrics.ledger.LedgerRecords.confirmed;
import static io.gpuaas.metrics.ledger.LedgerRecords.scrape;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuaas.events.usage.UsageDaily;
import io.gpuaas.events.usage.UsageDaily.BookingDay;
import io.gpuaas.events.usage.UsageDaily.Figures;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SealingTest {

    private static final LocalDate DAY = LocalDate.parse("2026-11-22");
    private static final LocalDate NEXT = DAY.plusDays(1);
    private static final Instant T10 = Instant.parse("2026-11-22T10:00:00Z");
    private final Sealing sealing = new Sealing(Duration.ofHours(1), Duration.ZERO);

    @Test
    void shouldSealADayOnlyOnceTheLatestEventIsTheSealDelayPastItsEnd() {
        assertThat(sealing.sealed(DAY, Instant.parse("2026-11-23T00:59:59.999Z")))
                .isFalse();
        assertThat(sealing.sealed(DAY, Instant.parse("2026-11-23T01:00:00Z"))).isTrue();
        assertThat(sealing.sealed(DAY, null)).isFalse();
    }

    @Test
    void shouldCutAtTheMinuteOfAsOfLessTheLagAndRefuseALagNotShorterThanTheSealDelay() {
        Sealing lagged = new Sealing(Duration.ofHours(1), Duration.ofMinutes(5));

        assertThat(lagged.cut(Instant.parse("2026-11-22T10:10:05Z")))
                .isEqualTo(Instant.parse("2026-11-22T10:05:00Z").toEpochMilli());
        assertThat(lagged.cut(null)).isEqualTo(Long.MIN_VALUE);
        assertThatThrownBy(() -> new Sealing(Duration.ofHours(1), Duration.ofHours(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cut-lag");
    }

    @Test
    void shouldSeeADayWholeOnlyWhenNoInputStartsAfterTheDaysStart() {
        assertThat(Sealing.visible(DAY, null)).isTrue();
        assertThat(Sealing.visible(DAY, Instant.parse("2026-11-22T00:00:00Z"))).isTrue();
        assertThat(Sealing.visible(DAY, Instant.parse("2026-11-22T00:00:01Z"))).isFalse();
        assertThat(Sealing.visible(NEXT, Instant.parse("2026-11-22T06:00:00Z"))).isTrue();
    }

    @Test
    void shouldKeepTheInputsOfTheEarliestDayWithFiguresThatNoRecordSealedYet() {
        Instant asOf = Instant.parse("2026-11-24T12:00:00Z");
        UsageDaily sealed = record("team-a", "2026-11-21", true);
        Map<String, UsageDaily> served = Map.of("team-a/2026-11-21", sealed);

        assertThat(sealing.cutoff(List.of("team-a/2026-11-21"), served, asOf, null))
                .as("every day before 11-24 is sealed by time, 11-21 on the topic")
                .isEqualTo(Instant.parse("2026-11-24T00:00:00Z").toEpochMilli());
        assertThat(sealing.cutoff(List.of("team-a/2026-11-21", "team-b/2026-11-22"), served, asOf, null))
                .isEqualTo(Instant.parse("2026-11-22T00:00:00Z").toEpochMilli());
    }

    @Test
    void shouldKeepTheInputsOfADayServedFromAnUnsealedRecordUntilItIsSealed() {
        Instant asOf = Instant.parse("2026-11-24T12:00:00Z");
        Map<String, UsageDaily> served = Map.of("team-a/2026-11-22", record("team-a", "2026-11-22", false));

        assertThat(sealing.cutoff(List.of("team-a/2026-11-22"), served, asOf, null))
                .as("the leader still seals 11-22 as BASE + the fold's DELTA: its inputs stay")
                .isEqualTo(Instant.parse("2026-11-22T00:00:00Z").toEpochMilli());
        assertThat(sealing.cutoff(
                        List.of("team-a/2026-11-22"),
                        Map.of("team-a/2026-11-22", record("team-a", "2026-11-22", true)),
                        asOf,
                        null))
                .isEqualTo(Instant.parse("2026-11-24T00:00:00Z").toEpochMilli());
    }

    @Test
    void shouldNotKeepInputsForADayThatEndedBeforeTheFoldsHorizon() {
        Instant asOf = Instant.parse("2026-11-24T12:00:00Z");
        List<String> days = List.of("team-a/2026-11-21", "team-a/2026-11-22");

        assertThat(sealing.cutoff(days, Map.of(), asOf, Instant.parse("2026-11-22T00:00:00Z")))
                .as("11-21 ended at the horizon: no record of it will come from this fold")
                .isEqualTo(Instant.parse("2026-11-22T00:00:00Z").toEpochMilli());
        assertThat(sealing.cutoff(days, Map.of(), asOf, Instant.parse("2026-11-21T23:59:59Z")))
                .as("the fold sees the last second of 11-21")
                .isEqualTo(Instant.parse("2026-11-21T00:00:00Z").toEpochMilli());
        assertThat(sealing.cutoff(List.of("team-a/2026-11-21"), Map.of(), asOf, Instant.parse("2026-11-23T06:00:00Z")))
                .isEqualTo(Instant.parse("2026-11-24T00:00:00Z").toEpochMilli());
    }

    @Test
    void shouldServeTheTopicsSealedRecordForTheDayAndItsBookingsInsteadOfTheFold() {
        LedgerInputs inputs = new LedgerInputs(POOLS, 0.05, Duration.ofSeconds(30));
        inputs.apply(confirmed(booking("bk-1", "team-a", "h200", 1, T10, T10.plus(Duration.ofHours(2)))));
        PublishedDays topic = new PublishedDays();
        Figures kept = new Figures(2.0, 1.5, 1.25, 0.25, 0, 0);
        topic.apply(
                "team-a/2026-11-22",
                new UsageDaily(
                        "team-a",
                        "2026-11-22",
                        Map.of("h200", kept),
                        kept,
                        9,
                        T10,
                        true,
                        List.of(new BookingDay("bk-1", "h200", kept))));
        LedgerSnapshots snapshots = new LedgerSnapshots(inputs, topic, sealing);
        snapshots.refresh();
        Ledger ledger = snapshots.current().orElseThrow();

        assertThat(ledger.days(DAY, NEXT, t -> true)).singleElement().satisfies(r -> assertThat(r.figures())
                .isEqualTo(kept));
        assertThat(ledger.bookings(DAY, NEXT, t -> true))
                .singleElement()
                .satisfies(r -> assertThat(r.figures().busy()).isEqualTo(1.25));
        assertThat(ledger.totals().get("team-a").get("h200").busy()).isEqualTo(1.25);
    }

    @Test
    void shouldDropTheSamplesOfADayOnceItIsSealedOnTheTopic() {
        LedgerInputs inputs = new LedgerInputs(POOLS, 0.05, Duration.ofSeconds(30));
        inputs.apply(confirmed(booking("bk-1", "team-a", "h200", 1, T10, T10.plus(Duration.ofHours(2)))));
        inputs.apply(scrape("n1", "GPU-1", "h200", "team-a", T10, 0.9));
        inputs.apply(scrape("n1", "GPU-1", "h200", "team-a", T10.plusSeconds(30), 0.9));
        // A day later: 11-22 is sealed and older than the utilization endpoint's 24 h.
        inputs.apply(scrape("n1", "GPU-1", "h200", "team-a", Instant.parse("2026-11-24T02:00:00Z"), 0.9));
        PublishedDays topic = new PublishedDays();
        LedgerSnapshots snapshots = new LedgerSnapshots(inputs, topic, sealing);
        snapshots.refresh();
        assertThat(inputs.ledger().totals().get("team-a").get("h200").busy()).isEqualTo(0.016667);

        topic.apply("team-a/2026-11-22", record("team-a", "2026-11-22", true));
        snapshots.refresh();

        assertThat(inputs.ledger().totals().get("team-a").get("h200").busy())
                .as("the fold forgot the sealed day's samples")
                .isZero();
        assertThat(snapshots
                        .current()
                        .orElseThrow()
                        .totals()
                        .get("team-a")
                        .get("h200")
                        .busy())
                .as("the snapshot serves the sealed record")
                .isEqualTo(1.0);
    }

    private static UsageDaily record(String tenant, String day, boolean sealed) {
        Figures f = new Figures(2.0, 0, 1.0, 0, 0, 0);
        return new UsageDaily(tenant, day, Map.of("h200", f), f, 1, T10, sealed, List.of());
    }

    @Test
    void shouldTakeTheHorizonTheBrokerToldNotTheEarliestRecordFolded() {
        LedgerInputs inputs = new LedgerInputs(POOLS, 0.05, Duration.ofSeconds(30));
        inputs.apply(scrape("n1", "GPU-1", "h200", "team-a", T10, 0.9));
        assertThat(inputs.copy().horizon()).as("no partition lost a record").isNull();
        // Another partition lost its records before 12:00: n1's 10:00 reading does not make the fold whole earlier.
        inputs.horizon(T10.plus(Duration.ofHours(2)));
        assertThat(inputs.copy().horizon()).isEqualTo(T10.plus(Duration.ofHours(2)));
    }
}
