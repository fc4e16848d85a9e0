package io.gpuaas.booking.model;

import static io.gpuaas.booking.model.Fixtures.NOW;
import static io.gpuaas.booking.model.Fixtures.POOLS;
import static io.gpuaas.booking.model.Fixtures.TEAM_A;
import static io.gpuaas.booking.model.Fixtures.TEAM_B;
import static io.gpuaas.booking.model.Fixtures.create;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingCommand;
import io.gpuaas.events.booking.BookingCommand.CancelSeries;
import io.gpuaas.events.booking.BookingCommand.CreateSeries;
import io.gpuaas.events.booking.BookingCommand.SeriesMode;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.BookingEvent.BookingCancelled;
import io.gpuaas.events.booking.BookingEvent.BookingConfirmed;
import io.gpuaas.events.booking.BookingEvent.BookingRejected;
import io.gpuaas.events.booking.BookingEvent.RefusedOccurrence;
import io.gpuaas.events.booking.BookingEvent.SeriesCancelled;
import io.gpuaas.events.booking.BookingEvent.SeriesDecided;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.booking.Caller;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A series decided in one decision of the pure decider: per occurrence, all or none, cancel the rest. */
class SeriesDecisionsTest {

    /** A Monday, a day after the decider's now. */
    private static final Instant MONDAY = Instant.parse("2030-01-07T09:00:00Z");

    private final BookingDecider decider = new BookingDecider(POOLS, BookingPolicy.DEFAULT);
    private final BookingLedger ledger = new BookingLedger(new InMemoryBookingRepository());

    private Decision run(BookingCommand command, Instant now) {
        Decision decision = decider.decide(command, ledger, now);
        ledger.apply(decision);
        return decision;
    }

    private static CreateSeries series(Caller caller, String key, int quantity, String rule, SeriesMode mode) {
        return new CreateSeries(
                UUID.randomUUID().toString(),
                key,
                caller,
                "h200",
                UUID.randomUUID().toString(),
                caller.tenant(),
                quantity,
                MONDAY,
                MONDAY.plus(Duration.ofHours(2)),
                null,
                "weekly training",
                null,
                rule,
                "Europe/Berlin",
                mode,
                NOW,
                null);
    }

    @Test
    void shouldBookEveryOccurrenceAndAnswerFirstWhenTheyAllFit() {
        CreateSeries s = series(TEAM_A, null, 4, "FREQ=WEEKLY;BYDAY=MO,TH;COUNT=4", SeriesMode.EACH);

        Decision d = run(s, NOW);

        SeriesDecided answer = (SeriesDecided) d.events().getFirst();
        assertThat(answer.requestId()).isEqualTo(s.requestId());
        assertThat(answer.refused()).isEmpty();
        assertThat(answer.confirmed()).hasSize(4).allSatisfy(b -> {
            assertThat(b.seriesId()).isEqualTo(s.seriesId());
            assertThat(b.state()).isEqualTo(BookingState.CONFIRMED);
        });
        assertThat(answer.confirmed())
                .extracting(Booking::id)
                .containsExactly(
                        Recurrence.occurrenceId(s.seriesId(), 0),
                        Recurrence.occurrenceId(s.seriesId(), 1),
                        Recurrence.occurrenceId(s.seriesId(), 2),
                        Recurrence.occurrenceId(s.seriesId(), 3));
        assertThat(d.events().subList(1, 5)).allSatisfy(e -> {
            assertThat(e).isInstanceOf(BookingConfirmed.class);
            assertThat(e.requestId()).isEqualTo(s.requestId());
        });
        assertThat(d.changes()).isEqualTo(answer.confirmed());
        assertThat(ledger.timeline("h200").reservedAt(MONDAY.plus(Duration.ofDays(3))))
                .isEqualTo(4);
    }

    @Test
    void shouldRefuseTheOccurrenceWhoseWeekIsFullAndBookTheRestWhenModeIsEach() {
        Instant secondWeek = MONDAY.plus(Duration.ofDays(7));
        run(create(TEAM_B, null, 6, secondWeek, secondWeek.plus(Duration.ofHours(1))), NOW);

        SeriesDecided answer = (SeriesDecided) run(series(TEAM_A, null, 4, "FREQ=WEEKLY;COUNT=3", SeriesMode.EACH), NOW)
                .events()
                .getFirst();

        assertThat(answer.confirmed())
                .extracting(Booking::start)
                .containsExactly(MONDAY, MONDAY.plus(Duration.ofDays(14)));
        assertThat(answer.refused()).singleElement().satisfies(r -> {
            assertThat(r.start()).isEqualTo(secondWeek);
            assertThat(r.reason()).isEqualTo("CAPACITY");
            assertThat(r.earliestStart()).isEqualTo(secondWeek.plus(Duration.ofHours(1)));
        });
        assertThat(ledger.booking(answer.refused().getFirst().bookingId())).isEmpty();
        assertThat(ledger.timeline("h200").reservedAt(secondWeek)).isEqualTo(6);
    }

    @Test
    void shouldBookNothingAndNameEveryOccurrenceWhenAllOrNoneMeetsARefusal() {
        Instant secondWeek = MONDAY.plus(Duration.ofDays(7));
        run(create(TEAM_B, null, 6, secondWeek, secondWeek.plus(Duration.ofHours(1))), NOW);

        Decision d = run(series(TEAM_A, null, 4, "FREQ=WEEKLY;COUNT=3", SeriesMode.ALL_OR_NONE), NOW);

        SeriesDecided answer = (SeriesDecided) d.events().getFirst();
        assertThat(d.events()).hasSize(1);
        assertThat(d.changes()).isEmpty();
        assertThat(answer.confirmed()).isEmpty();
        assertThat(answer.refused())
                .extracting(RefusedOccurrence::reason)
                .containsExactly("SERIES_ALL_OR_NONE", "CAPACITY", "SERIES_ALL_OR_NONE");
        assertThat(ledger.timeline("h200").reservedAt(MONDAY)).isZero();
    }

    @Test
    void shouldRefuseTheWholeSeriesWhenTheRuleIsBad() {
        CreateSeries s = series(TEAM_A, null, 1, "FREQ=HOURLY;COUNT=3", SeriesMode.EACH);

        BookingRejected rejected = (BookingRejected) run(s, NOW).events().getFirst();

        assertThat(rejected.reason()).isEqualTo("INVALID_RECURRENCE");
        assertThat(rejected.bookingId()).isEqualTo(s.seriesId());
        assertThat(rejected.message()).contains("FREQ must be DAILY or WEEKLY");
    }

    @Test
    void shouldRefuseOccurrencesBeyondTheHorizonOnTheirOwn() {
        // 90 days of advance from NOW: weekly from Jan 7 reaches past it after 12 weeks.
        SeriesDecided answer =
                (SeriesDecided) run(series(TEAM_A, null, 1, "FREQ=WEEKLY;COUNT=14", SeriesMode.EACH), NOW)
                        .events()
                        .getFirst();

        assertThat(answer.confirmed()).hasSize(12);
        assertThat(answer.refused()).extracting(RefusedOccurrence::reason).containsOnly("POLICY_MAX_ADVANCE");
    }

    @Test
    void shouldGiveTheSameAnswerAndBookNothingMoreWhenTheKeyRepeats() {
        CreateSeries first = series(TEAM_A, "series-key", 2, "FREQ=DAILY;COUNT=3", SeriesMode.EACH);
        SeriesDecided answer = (SeriesDecided) run(first, NOW).events().getFirst();
        CreateSeries again = series(TEAM_A, "series-key", 2, "FREQ=DAILY;COUNT=3", SeriesMode.EACH);

        Decision replay = run(again, NOW.plusSeconds(5));

        assertThat(replay.events()).singleElement().isInstanceOf(SeriesDecided.class);
        SeriesDecided repeated = (SeriesDecided) replay.events().getFirst();
        assertThat(repeated.requestId()).isEqualTo(again.requestId());
        assertThat(repeated.seriesId()).isEqualTo(answer.seriesId());
        assertThat(repeated.confirmed()).isEqualTo(answer.confirmed());
        assertThat(ledger.timeline("h200").reservedAt(MONDAY)).isEqualTo(2);
    }

    @Test
    void shouldDecideTheSameWayWhenReplayedOnTheSameState() {
        CreateSeries s = series(TEAM_A, null, 4, "FREQ=WEEKLY;BYDAY=MO,WE,FR;COUNT=9", SeriesMode.EACH);
        BookingLedger other = new BookingLedger(new InMemoryBookingRepository());

        assertThat(decider.decide(s, other, NOW)).isEqualTo(decider.decide(s, ledger, NOW));
    }

    @Test
    void shouldCancelOnlyTheOccurrencesFromTheGivenTimeWhenTheRestIsCancelled() {
        CreateSeries s = series(TEAM_A, null, 2, "FREQ=WEEKLY;COUNT=4", SeriesMode.EACH);
        run(s, NOW);
        Instant from = MONDAY.plus(Duration.ofDays(10));
        CancelSeries cancel = new CancelSeries("req-c", null, TEAM_A, "h200", s.seriesId(), from, NOW, null);

        Decision d = run(cancel, NOW);

        SeriesCancelled answer = (SeriesCancelled) d.events().getFirst();
        assertThat(answer.cancelled())
                .containsExactly(Recurrence.occurrenceId(s.seriesId(), 2), Recurrence.occurrenceId(s.seriesId(), 3));
        assertThat(d.events().subList(1, 3)).allSatisfy(e -> assertThat(e).isInstanceOf(BookingCancelled.class));
        assertThat(ledger.booking(Recurrence.occurrenceId(s.seriesId(), 1))
                        .orElseThrow()
                        .state())
                .isEqualTo(BookingState.CONFIRMED);
        assertThat(ledger.booking(Recurrence.occurrenceId(s.seriesId(), 3))
                        .orElseThrow()
                        .state())
                .isEqualTo(BookingState.CANCELLED);
    }

    @Test
    void shouldAnswerNotFoundWhenAnotherTenantCancelsTheSeries() {
        CreateSeries s = series(TEAM_A, null, 2, "FREQ=WEEKLY;COUNT=2", SeriesMode.EACH);
        run(s, NOW);

        BookingEvent answer = run(new CancelSeries("req-c", null, TEAM_B, "h200", s.seriesId(), null, NOW, null), NOW)
                .events()
                .getFirst();

        assertThat(answer).isInstanceOf(BookingRejected.class);
        assertThat(((BookingRejected) answer).reason()).isEqualTo("NOT_FOUND");
        assertThat(ledger.timeline("h200").reservedAt(MONDAY)).isEqualTo(2);
    }

    @Test
    void shouldLeaveStartedOccurrencesWhenTheRestIsCancelledFromNow() {
        CreateSeries s = series(TEAM_A, null, 2, "FREQ=DAILY;COUNT=3", SeriesMode.EACH);
        run(s, NOW);
        Instant duringSecond = MONDAY.plus(Duration.ofDays(1)).plus(Duration.ofMinutes(30));
        ledger.apply(decider.advance(ledger, duringSecond));

        SeriesCancelled answer = (SeriesCancelled) run(
                        new CancelSeries("req-c", null, TEAM_A, "h200", s.seriesId(), null, duringSecond, null),
                        duringSecond)
                .events()
                .getFirst();

        assertThat(answer.from()).isEqualTo(duringSecond);
        assertThat(answer.cancelled()).containsExactly(Recurrence.occurrenceId(s.seriesId(), 2));
        assertThat(ledger.booking(Recurrence.occurrenceId(s.seriesId(), 1))
                        .orElseThrow()
                        .state())
                .isEqualTo(BookingState.ACTIVE);
    }

    @Test
    void shouldRefuseAnotherSeriesWithTheSameIdAsExisting() {
        CreateSeries s = series(TEAM_A, null, 1, "FREQ=DAILY;COUNT=2", SeriesMode.EACH);
        run(s, NOW);
        CreateSeries same = new CreateSeries(
                "other-request",
                null,
                TEAM_A,
                "h200",
                s.seriesId(),
                "team-a",
                1,
                MONDAY,
                MONDAY.plusSeconds(3600),
                null,
                null,
                null,
                "FREQ=DAILY;COUNT=2",
                null,
                SeriesMode.EACH,
                NOW,
                null);

        assertThat(((BookingRejected) run(same, NOW).events().getFirst()).reason())
                .isEqualTo("BOOKING_EXISTS");
    }
}
