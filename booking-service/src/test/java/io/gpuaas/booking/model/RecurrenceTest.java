package io.gpuaas.booking.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RecurrenceTest {

    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    private static List<Recurrence.Occurrence> expand(String rule, ZoneId zone, Instant start, Instant end) {
        return Recurrence.expand(RecurrenceRule.parse(rule), zone, start, end);
    }

    @Test
    void shouldKeepTheLocalTimeWhenAWeeklySeriesCrossesTheDaylightSavingChange() {
        // Monday 2030-03-25 09:00 Berlin is UTC+1 before the change on Sunday 2030-03-31, UTC+2 after.
        Instant start = Instant.parse("2030-03-25T08:00:00Z");

        List<Recurrence.Occurrence> weeks =
                expand("FREQ=WEEKLY;BYDAY=MO;COUNT=3", BERLIN, start, start.plus(Duration.ofHours(2)));

        assertThat(weeks)
                .extracting(Recurrence.Occurrence::start)
                .containsExactly(
                        Instant.parse("2030-03-25T08:00:00Z"),
                        Instant.parse("2030-04-01T07:00:00Z"),
                        Instant.parse("2030-04-08T07:00:00Z"));
        assertThat(weeks).allSatisfy(o -> {
            assertThat(o.start().atZone(BERLIN).toLocalTime()).isEqualTo(LocalTime.of(9, 0));
            assertThat(o.end().atZone(BERLIN).toLocalTime()).isEqualTo(LocalTime.of(11, 0));
        });
    }

    @Test
    void shouldKeepTheUtcTimeWhenNoZoneIsGiven() {
        Instant start = Instant.parse("2030-03-25T08:00:00Z");

        List<Recurrence.Occurrence> weeks =
                expand("FREQ=WEEKLY;COUNT=3", Recurrence.zone(null), start, start.plus(Duration.ofHours(2)));

        assertThat(weeks)
                .extracting(Recurrence.Occurrence::start)
                .containsExactly(start, start.plus(Duration.ofDays(7)), start.plus(Duration.ofDays(14)));
    }

    @Test
    void shouldStartOnTheFirstNamedDayWhenTheStartDateIsNotOne() {
        // 2030-01-06 is a Sunday; the rule names Monday and Wednesday.
        Instant start = Instant.parse("2030-01-06T10:00:00Z");

        List<Recurrence.Occurrence> days =
                expand("FREQ=WEEKLY;BYDAY=MO,WE;COUNT=4", ZoneOffset.UTC, start, start.plus(Duration.ofHours(1)));

        assertThat(days)
                .extracting(o -> LocalDate.ofInstant(o.start(), ZoneOffset.UTC))
                .containsExactly(
                        LocalDate.of(2030, 1, 7),
                        LocalDate.of(2030, 1, 9),
                        LocalDate.of(2030, 1, 14),
                        LocalDate.of(2030, 1, 16));
        assertThat(days).extracting(Recurrence.Occurrence::index).containsExactly(0, 1, 2, 3);
    }

    @Test
    void shouldSkipWeeksWhenTheIntervalIsTwo() {
        Instant start = Instant.parse("2030-01-07T10:00:00Z"); // a Monday

        List<Recurrence.Occurrence> days =
                expand("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;COUNT=3", ZoneOffset.UTC, start, start.plusSeconds(3600));

        assertThat(days)
                .extracting(Recurrence.Occurrence::start)
                .containsExactly(start, start.plus(Duration.ofDays(14)), start.plus(Duration.ofDays(28)));
    }

    @Test
    void shouldStopAtTheUntilDateIncludingItWhenUntilIsADate() {
        Instant start = Instant.parse("2030-01-01T22:00:00Z"); // 23:00 in Berlin, Jan 1

        List<Recurrence.Occurrence> days = expand("FREQ=DAILY;UNTIL=20300103", BERLIN, start, start.plusSeconds(3600));

        assertThat(days).hasSize(3);
        assertThat(days.getLast().start().atZone(BERLIN).toLocalDate()).isEqualTo(LocalDate.of(2030, 1, 3));
    }

    @Test
    void shouldStopAtTheUntilInstantWhenUntilIsAUtcTime() {
        Instant start = Instant.parse("2030-01-01T10:00:00Z");

        List<Recurrence.Occurrence> days =
                expand("FREQ=DAILY;UNTIL=20300103T100000Z", ZoneOffset.UTC, start, start.plusSeconds(3600));

        assertThat(days).hasSize(3);
        assertThat(expand("FREQ=DAILY;UNTIL=20300103T095959Z", ZoneOffset.UTC, start, start.plusSeconds(3600)))
                .hasSize(2);
    }

    @Test
    void shouldRefuseWhenOccurrencesWouldOverlap() {
        Instant start = Instant.parse("2030-01-01T10:00:00Z");

        assertThatThrownBy(() -> expand("FREQ=DAILY;COUNT=2", ZoneOffset.UTC, start, start.plus(Duration.ofHours(25))))
                .isInstanceOf(RecurrenceRule.InvalidRecurrence.class)
                .hasMessageContaining("overlap");
    }

    @Test
    void shouldRefuseWhenUntilAllowsMoreThanTheMaximumOrNothing() {
        Instant start = Instant.parse("2030-01-01T10:00:00Z");

        assertThatThrownBy(() -> expand("FREQ=DAILY;UNTIL=20310101", ZoneOffset.UTC, start, start.plusSeconds(3600)))
                .hasMessageContaining("at most 100");
        assertThatThrownBy(() -> expand("FREQ=DAILY;UNTIL=20291231", ZoneOffset.UTC, start, start.plusSeconds(3600)))
                .hasMessageContaining("no occurrence");
    }

    @ParameterizedTest
    @ValueSource(strings = {"Mars/Olympus", "not a zone", "+25:00"})
    void shouldRefuseAnUnknownZone(String zone) {
        assertThatThrownBy(() -> Recurrence.zone(zone))
                .isInstanceOf(RecurrenceRule.InvalidRecurrence.class)
                .hasMessageContaining("unknown time zone");
    }

    @Test
    void shouldNameEveryOccurrenceTheSameWayOnEveryReplay() {
        assertThat(Recurrence.occurrenceId("s-1", 3)).isEqualTo(Recurrence.occurrenceId("s-1", 3));
        assertThat(Recurrence.occurrenceId("s-1", 3)).isNotEqualTo(Recurrence.occurrenceId("s-1", 4));
        assertThat(Recurrence.occurrenceId("s-1", 3)).isNotEqualTo(Recurrence.occurrenceId("s-2", 3));
    }

    /**
     * Random rules, zones and starts against a brute-force walk over the calendar: every occurrence is on a day the
     * rule names, in a week (or day) the interval allows, at the first occurrence's local time and length, in order,
     * without overlap, and no qualifying day is skipped.
     */
    @Test
    void shouldMatchACalendarWalkForRandomRules() {
        List<ZoneId> zones = List.of(
                ZoneOffset.UTC,
                BERLIN,
                ZoneId.of("America/New_York"),
                ZoneId.of("Australia/Lord_Howe"),
                ZoneId.of("Asia/Kolkata"));
        Random random = new Random(29);
        for (int run = 0; run < 2000; run++) {
            ZoneId zone = zones.get(random.nextInt(zones.size()));
            boolean weekly = random.nextBoolean();
            int interval = 1 + random.nextInt(3);
            Set<DayOfWeek> days = EnumSet.noneOf(DayOfWeek.class);
            if (weekly) {
                for (DayOfWeek d : DayOfWeek.values()) {
                    if (random.nextInt(3) == 0) {
                        days.add(d);
                    }
                }
            }
            int count = 1 + random.nextInt(30);
            LocalDate firstDate = LocalDate.of(2030, 1, 1).plusDays(random.nextInt(365));
            LocalTime time = LocalTime.of(random.nextInt(24), 15 * random.nextInt(4));
            Instant start = ZonedDateTime.of(firstDate, time, zone).toInstant();
            Duration length = Duration.ofMinutes(15L * (1 + random.nextInt(weekly || interval > 1 ? 40 : 80)));
            String rule =
                    (weekly ? "FREQ=WEEKLY" : "FREQ=DAILY") + ";INTERVAL=" + interval + byDay(days) + ";COUNT=" + count;

            List<Recurrence.Occurrence> got =
                    Recurrence.expand(RecurrenceRule.parse(rule), zone, start, start.plus(length));

            assertThat(got).as(rule + " from " + start + " in " + zone).hasSize(count);
            LocalDate localFirst = start.atZone(zone).toLocalDate();
            LocalTime localTime = start.atZone(zone).toLocalTime();
            Duration localLength = Duration.between(
                    start.atZone(zone).toLocalDateTime(),
                    start.plus(length).atZone(zone).toLocalDateTime());
            List<LocalDate> walk = walk(weekly, interval, days, localFirst, count);
            Set<Instant> seen = new HashSet<>();
            for (int i = 0; i < count; i++) {
                Recurrence.Occurrence o = got.get(i);
                assertThat(o.index()).isEqualTo(i);
                ZonedDateTime expectedStart = ZonedDateTime.of(walk.get(i), localTime, zone);
                assertThat(o.start()).as(rule + " occurrence " + i).isEqualTo(expectedStart.toInstant());
                assertThat(o.end())
                        .isEqualTo(
                                ZonedDateTime.of(expectedStart.toLocalDateTime().plus(localLength), zone)
                                        .toInstant());
                assertThat(seen.add(o.start())).isTrue();
                if (i > 0) {
                    assertThat(o.start()).isAfterOrEqualTo(got.get(i - 1).end());
                }
            }
        }
    }

    private static String byDay(Set<DayOfWeek> days) {
        if (days.isEmpty()) {
            return "";
        }
        List<String> names = new ArrayList<>();
        for (DayOfWeek d : days) {
            names.add(d.name().substring(0, 2));
        }
        return ";BYDAY=" + String.join(",", names);
    }

    /** Day by day from the first date: the days the rule allows, by counting days or Monday-weeks from the first. */
    private static List<LocalDate> walk(boolean weekly, int interval, Set<DayOfWeek> days, LocalDate first, int count) {
        Set<DayOfWeek> allowed = days.isEmpty() ? Set.of(first.getDayOfWeek()) : days;
        LocalDate firstMonday = first.minusDays(first.getDayOfWeek().ordinal());
        List<LocalDate> dates = new ArrayList<>();
        for (LocalDate d = first; dates.size() < count; d = d.plusDays(1)) {
            long sinceFirst = first.until(d, java.time.temporal.ChronoUnit.DAYS);
            boolean ok = weekly
                    ? allowed.contains(d.getDayOfWeek())
                            && firstMonday.until(d, java.time.temporal.ChronoUnit.WEEKS) % interval == 0
                    : sinceFirst % interval == 0;
            if (ok) {
                dates.add(d);
            }
        }
        return dates;
    }
}
