package io.gpuaas.booking.model;

import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjusters;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * Expands a {@link RecurrenceRule} into the windows of a series; pure (no clock). The first occurrence's window is
 * read as wall-clock time in the series' zone: every occurrence falls on a date the rule names, on or after the first
 * one's date, at the same local time and for the same local length, so a weekly 09:00–11:00 in Europe/Berlin stays
 * 09:00–11:00 there after the clocks change (and moves by an hour in UTC). A local time the change skips is moved
 * forward by the gap, one it repeats takes the earlier offset ({@link ZonedDateTime#of}). The first date counts only
 * when the rule names it (a weekly rule on Mondays started on a Sunday begins the next day). Weeks start on Monday
 * (RFC 5545's default WKST).
 */
public final class Recurrence {

    /** The most occurrences one series may have. */
    public static final int MAX_OCCURRENCES = 100;

    private Recurrence() {}

    /**
     * One occurrence.
     *
     * @param index its place in the series, from 0 (names its booking id)
     * @param start inclusive start
     * @param end   exclusive end
     */
    public record Occurrence(int index, Instant start, Instant end) {}

    /** The booking id of occurrence {@code index} of series {@code seriesId}: the same on every replay. */
    public static String occurrenceId(String seriesId, int index) {
        return UUID.nameUUIDFromBytes((seriesId + "/" + index).getBytes(StandardCharsets.UTF_8))
                .toString();
    }

    /**
     * The zone a series is expanded in.
     *
     * @param name an IANA zone id, or null for UTC
     * @throws RecurrenceRule.InvalidRecurrence when the zone is unknown or not a region
     */
    public static ZoneId zone(String name) {
        if (name == null) {
            return ZoneOffset.UTC;
        }
        try {
            return ZoneId.of(name);
        } catch (DateTimeException e) {
            throw new RecurrenceRule.InvalidRecurrence(
                    "unknown time zone " + name + "; give an IANA name such as" + " Europe/Berlin");
        }
    }

    /**
     * The occurrences of {@code rule} whose first window is {@code [firstStart, firstEnd)} in {@code zone}.
     *
     * @throws RecurrenceRule.InvalidRecurrence when the rule has no occurrence, more than {@link #MAX_OCCURRENCES}, or
     *                                          occurrences that overlap each other
     */
    public static List<Occurrence> expand(RecurrenceRule rule, ZoneId zone, Instant firstStart, Instant firstEnd) {
        LocalDateTime localStart = LocalDateTime.ofInstant(firstStart, zone);
        Duration localLength = Duration.between(localStart, LocalDateTime.ofInstant(firstEnd, zone));
        List<Occurrence> occurrences = new ArrayList<>();
        for (LocalDate date : dates(rule, localStart.toLocalDate())) {
            ZonedDateTime start = ZonedDateTime.of(date, localStart.toLocalTime(), zone);
            if (rule.untilInstant() != null && start.toInstant().isAfter(rule.untilInstant())) {
                break;
            }
            Instant end = ZonedDateTime.of(start.toLocalDateTime().plus(localLength), zone)
                    .toInstant();
            occurrences.add(new Occurrence(occurrences.size(), start.toInstant(), end));
        }
        if (occurrences.isEmpty()) {
            throw new RecurrenceRule.InvalidRecurrence("the rule has no occurrence on or after the start");
        }
        if (occurrences.size() > MAX_OCCURRENCES) {
            throw new RecurrenceRule.InvalidRecurrence(
                    "a series may have at most " + MAX_OCCURRENCES + " occurrences; this rule has more before UNTIL");
        }
        for (int i = 1; i < occurrences.size(); i++) {
            if (occurrences.get(i).start().isBefore(occurrences.get(i - 1).end())) {
                throw new RecurrenceRule.InvalidRecurrence("occurrences overlap: each must end before the next starts ("
                        + occurrences.get(i).start() + ")");
            }
        }
        return List.copyOf(occurrences);
    }

    /**
     * The dates of the rule from {@code first} on, at most {@link #MAX_OCCURRENCES} + 1 of them (one more than
     * allowed, so an UNTIL too far away is noticed), stopping at COUNT or the UNTIL date. An UNTIL instant is applied
     * by the caller, which knows the time of day.
     */
    private static List<LocalDate> dates(RecurrenceRule rule, LocalDate first) {
        int wanted = rule.count() != null ? rule.count() : MAX_OCCURRENCES + 1;
        List<LocalDate> dates = new ArrayList<>();
        if (rule.frequency() == RecurrenceRule.Frequency.DAILY) {
            for (LocalDate d = first; dates.size() < wanted && withinUntil(rule, d); d = d.plusDays(rule.interval())) {
                dates.add(d);
            }
            return dates;
        }
        Set<DayOfWeek> days = rule.days().isEmpty() ? Set.of(first.getDayOfWeek()) : rule.days();
        LocalDate week = first.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
        while (dates.size() < wanted) {
            for (DayOfWeek day : DayOfWeek.values()) {
                LocalDate d = week.plusDays(day.ordinal());
                if (!days.contains(day) || d.isBefore(first)) {
                    continue;
                }
                if (dates.size() == wanted || !withinUntil(rule, d)) {
                    return dates;
                }
                dates.add(d);
            }
            week = week.plus(rule.interval(), ChronoUnit.WEEKS);
        }
        return dates;
    }

    private static boolean withinUntil(RecurrenceRule rule, LocalDate date) {
        if (rule.untilDate() != null) {
            return !date.isAfter(rule.untilDate());
        }
        // An UNTIL instant is checked on the occurrence's start; a date past it by more than a day cannot qualify.
        return rule.untilInstant() == null
                || !date.isAfter(
                        LocalDate.ofInstant(rule.untilInstant(), ZoneOffset.UTC).plusDays(1));
    }
}
