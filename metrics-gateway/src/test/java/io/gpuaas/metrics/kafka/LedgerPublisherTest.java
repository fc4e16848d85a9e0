package io.gpuaas.metrics.kafka;

import static io.gpuaas.metrics.ledger.LedgerRecords.POOLS;
import static io.gpuaas.metrics.ledger.LedgerRecords.booking;
import static io.gpuaas.metrics.ledger.LedgerRecords.confirmed;
import static io.gpuaas.metrics.ledger.LedgerRecords.scrape;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.usage.UsageDaily;
import io.gpuaas.events.usage.UsageLedgerEvent;
import io.gpuaas.kit.k8s.LeaderSchedule;
import io.gpuaas.metrics.ledger.LedgerInputs;
import io.gpuaas.metrics.ledger.LedgerSnapshots;
import io.gpuaas.metrics.ledger.PublishedDays;
import io.gpuaas.metrics.ledger.Sealing;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

class LedgerPublisherTest {

    private static final Instant T10 = Instant.parse("2026-11-22T10:00:00Z");
    private static final String KEY = "team-a/2026-11-22";

    private final LedgerInputs ledger = new LedgerInputs(POOLS, 0.05, Duration.ofSeconds(30));
    private final PublishedDays topic = new PublishedDays();
    private final LedgerSnapshots snapshots =
            new LedgerSnapshots(ledger, topic, new Sealing(Duration.ofHours(1), Duration.ZERO));
    private final MockProducer<String, UsageLedgerEvent> producer =
            new MockProducer<>(true, null, new StringSerializer(), (t, value) -> new byte[0]);
    private final LedgerPublisher publisher =
            new LedgerPublisher(snapshots, producer, "gpuaas.usage-ledger", Duration.ofMinutes(1));

    /** Moves the ledger's asOf (and cut) to {@code time}: a reading of a device no booking holds. */
    private void clock(Instant time) {
        ledger.apply(scrape("n9", "GPU-9", "h200", "nobody", time, 0.0));
    }

    private List<UsageDaily> publish() {
        snapshots.refresh();
        return publisher.publishChanged();
    }

    @Test
    void shouldPublishNothingBeforeTheLedgerFeedCaughtUp() {
        ledger.apply(confirmed(booking("bk-1", "team-a", "h200", 1, T10, T10.plus(Duration.ofHours(2)))));

        assertThat(publisher.publishChanged()).isEmpty();
        assertThat(producer.history()).isEmpty();
    }

    @Test
    void shouldPublishADayOnceAndAgainOnlyWhenItsFiguresChange() {
        Booking b = booking("bk-1", "team-a", "h200", 1, T10, T10.plus(Duration.ofHours(2)));
        ledger.apply(confirmed(b));
        clock(T10.plus(Duration.ofHours(2)));

        assertThat(publish())
                .extracting(UsageDaily::tenant, UsageDaily::day, d -> d.total().booked(), UsageDaily::isSealed)
                .containsExactly(Tuple.tuple("team-a", "2026-11-22", 2.0, false));
        assertThat(publish()).isEmpty();

        ledger.apply(confirmed(booking("bk-2", "team-b", "h200", 1, T10, T10.plus(Duration.ofHours(1)))));
        assertThat(publish()).extracting(UsageDaily::tenant).containsExactly("team-b");
        assertThat(producer.history()).extracting(r -> r.key()).containsExactly(KEY, "team-b/2026-11-22");
    }

    @Test
    void shouldPublishADayWithoutFiguresWhenItsOnlyBookingIsCancelledBeforeItsStart() {
        Booking b = booking("bk-1", "team-a", "h200", 1, T10, T10.plus(Duration.ofHours(2)));
        ledger.apply(confirmed(b));
        clock(T10.plus(Duration.ofHours(2)));
        assertThat(publish()).hasSize(1);

        Booking cancelled = b.withState(BookingState.CANCELLED, T10.minusSeconds(60));
        ledger.apply(new BookingEvent.BookingCancelled("req-cancel", cancelled, T10.minusSeconds(60)));

        assertThat(publish()).singleElement().satisfies(d -> {
            assertThat(d.pools()).isEmpty();
            assertThat(d.total()).isEqualTo(UsageDaily.Figures.ZERO);
        });
        assertThat(publish()).isEmpty();
    }

    @Test
    void shouldResendNothingWhenANewLeaderFindsTheSameFiguresOnTheTopic() {
        ledger.apply(confirmed(booking("bk-1", "team-a", "h200", 1, T10, T10.plus(Duration.ofHours(2)))));
        clock(T10.plus(Duration.ofHours(2)));
        UsageDaily first = publish().getFirst();
        topic.apply(KEY, first);

        LeaderSchedule schedule = publisher.schedule(new PrometheusRegistry());
        schedule.start();
        schedule.lead();
        schedule.stepDown();
        assertThat(publish()).as("the topic already holds the day").isEmpty();
        assertThat(producer.history()).hasSize(1);
    }

    @Test
    void shouldSealADayOnceItIsOverWithEachBookingsFiguresAndNeverSendItAgain() {
        ledger.apply(confirmed(booking("bk-1", "team-a", "h200", 1, T10, T10.plus(Duration.ofHours(2)))));
        ledger.apply(scrape("n1", "GPU-1", "h200", "team-a", T10, 0.9));
        ledger.apply(scrape("n1", "GPU-1", "h200", "team-a", T10.plusSeconds(30), 0.9));
        clock(T10.plus(Duration.ofHours(2)));
        assertThat(publish()).singleElement().satisfies(d -> assertThat(d.isSealed())
                .isFalse());

        // An event 15 h later: 2026-11-22 ended 01:00 before it plus the hour late records may take.
        ledger.apply(scrape("n1", "GPU-1", "h200", "team-a", Instant.parse("2026-11-23T01:00:00Z"), 0.9));
        assertThat(publish()).singleElement().satisfies(d -> {
            assertThat(d.isSealed()).isTrue();
            // two readings, each charged its gap up to usage.max-gap (30 s): 60 s of one GPU
            assertThat(d.total().busy()).isEqualTo(0.016667);
            assertThat(d.bookings())
                    .extracting(
                            UsageDaily.BookingDay::bookingId, b -> b.figures().booked())
                    .containsExactly(Tuple.tuple("bk-1", 2.0));
        });
        assertThat(publish()).as("a sealed day is final").isEmpty();
    }

    @Test
    void shouldServeTheTopicsLastRecordAloneWhenItHasNoCutAndSealItOnlyOnceTheDayIsOver() {
        ledger.horizon(T10.plusSeconds(600));
        ledger.apply(confirmed(booking("bk-1", "team-a", "h200", 1, T10, T10.plus(Duration.ofHours(2)))));
        ledger.apply(scrape("n1", "GPU-1", "h200", "team-a", T10.plusSeconds(600), 0.9));
        ledger.apply(scrape("n1", "GPU-1", "h200", "team-a", T10.plusSeconds(630), 0.9));
        UsageDaily.Figures before = new UsageDaily.Figures(2.0, 0, 0.5, 0, 0, 0);
        topic.apply(KEY, new UsageDaily("team-a", "2026-11-22", Map.of("h200", before), before, 7, T10));

        assertThat(publish())
                .as("the day is not over, and the fold's figures would be low")
                .isEmpty();
        var ledgerNow = snapshots.current().orElseThrow();
        assertThat(ledgerNow.baseOnly()).containsExactly(KEY);
        assertThat(ledgerNow.days(LocalDate.parse("2026-11-22"), LocalDate.parse("2026-11-23"), t -> true))
                .singleElement()
                .satisfies(row -> assertThat(row.figures().busy()).isEqualTo(0.5));

        clock(Instant.parse("2026-11-23T01:00:00Z"));
        assertThat(publish()).singleElement().satisfies(d -> {
            assertThat(d.isSealed()).isTrue();
            assertThat(d.total().busy())
                    .as("the earlier leader's figure, not the fold's")
                    .isEqualTo(0.5);
        });
    }

    @Test
    void shouldPublishTheTopicsRecordPlusTheFoldsFiguresFromItsCutWhenTheFoldMissesTheStartOfTheDay() {
        ledger.horizon(T10.plusSeconds(300));
        Instant nine = T10.minus(Duration.ofHours(1));
        ledger.apply(confirmed(booking("bk-1", "team-a", "h200", 1, nine, T10.plus(Duration.ofHours(2)))));
        // The earlier leader's record covers [00:00, 10:05): 65 min booked, 0.5 h busy.
        UsageDaily.Figures base = new UsageDaily.Figures(1.083333, 0, 0.5, 0, 0, 0);
        Instant cut = T10.plusSeconds(300);
        topic.apply(
                KEY,
                new UsageDaily(
                        "team-a",
                        "2026-11-22",
                        Map.of("h200", base),
                        base,
                        7,
                        cut,
                        null,
                        List.of(new UsageDaily.BookingDay("bk-1", "h200", base)),
                        cut,
                        UsageDaily.GPU_SHARE));
        // This replica's samples start at the cut (its horizon): 10:05:00 and 10:05:30 busy, charged 30 s each in
        // minute 10:05 (the 10:06:00 reading closes the second one and is itself not charged yet).
        ledger.apply(scrape("n1", "GPU-1", "h200", "team-a", cut, 0.9));
        ledger.apply(scrape("n1", "GPU-1", "h200", "team-a", cut.plusSeconds(30), 0.9));
        ledger.apply(scrape("n1", "GPU-1", "h200", "team-a", cut.plusSeconds(60), 0.9));
        clock(T10.plusSeconds(420)); // 10:07: the cut moves to 10:07; minute 10:05 is in, 10:06 has nothing

        assertThat(publish()).singleElement().satisfies(d -> {
            assertThat(d.isSealed()).as("the day is not over").isFalse();
            assertThat(d.cut()).isEqualTo(T10.plusSeconds(420));
            // booked: 1.083333 + [10:05, 10:07) = 1.116666(3); busy: 0.5 h + 60 s = 0.516667
            assertThat(d.total().booked()).isEqualTo(1.116666);
            assertThat(d.total().busy()).isEqualTo(0.516667);
            assertThat(d.bookings()).singleElement().satisfies(b -> assertThat(
                            b.figures().busy())
                    .isCloseTo(0.516667, org.assertj.core.data.Offset.offset(1e-6)));
        });
        assertThat(snapshots
                        .current()
                        .orElseThrow()
                        .days(LocalDate.parse("2026-11-22"), LocalDate.parse("2026-11-23"), t -> true))
                .singleElement()
                .satisfies(row -> assertThat(row.figures().booked())
                        .as("the API counts the booked window whole, as for a day the fold sees")
                        .isEqualTo(3.0));
    }

    @Test
    void shouldPublishNothingForADayTheFoldCannotSeeWhenTheTopicHasNoRecordOfIt() {
        ledger.horizon(T10);
        ledger.apply(confirmed(booking("bk-1", "team-a", "h200", 1, T10, T10.plus(Duration.ofHours(2)))));
        ledger.apply(scrape("n1", "GPU-1", "h200", "team-a", T10, 0.9));

        assertThat(publish()).isEmpty();
    }
}
