package io.gpuaas.booking.model;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The subset of an RFC 5545 RRULE a series may use: {@code FREQ=DAILY|WEEKLY}, optional {@code INTERVAL}, {@code BYDAY}
 * (weekly only, plain weekdays) and exactly one of {@code COUNT} and {@code UNTIL}, so every series is bounded. Parts
 * are {@code NAME=VALUE} separated by {@code ;}, in any order, names case-insensitive, an optional {@code RRULE:}
 * prefix; any other part is refused rather than ignored, so a rule never means less than it says.
 *
 * @param frequency  daily or weekly
 * @param interval   every how many days or weeks (1 to {@link #MAX_INTERVAL})
 * @param days       the weekdays of a weekly rule (empty: the first occurrence's weekday)
 * @param count      how many occurrences, or null when {@code UNTIL} bounds the rule
 * @param untilDate  the last local date an occurrence may fall on (UNTIL as a date), or null
 * @param untilInstant the last instant an occurrence may start at (UNTIL as a UTC date-time), or null
 */
public record RecurrenceRule(
        Frequency frequency,
        int interval,
        Set<DayOfWeek> days,
        Integer count,
        LocalDate untilDate,
        Instant untilInstant) {

    /** The longest rule text accepted. */
    public static final int MAX_LENGTH = 256;

    static final int MAX_INTERVAL = 52;

    private static final DateTimeFormatter UNTIL_INSTANT =
            DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmmssX", Locale.ROOT);

    private static final Map<String, DayOfWeek> DAYS = Map.of(
            "MO", DayOfWeek.MONDAY,
            "TU", DayOfWeek.TUESDAY,
            "WE", DayOfWeek.WEDNESDAY,
            "TH", DayOfWeek.THURSDAY,
            "FR", DayOfWeek.FRIDAY,
            "SA", DayOfWeek.SATURDAY,
            "SU", DayOfWeek.SUNDAY);

    /** How often a rule repeats. */
    public enum Frequency {
        DAILY,
        WEEKLY
    }

    public RecurrenceRule {
        days = days.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(days));
    }

    /**
     * Reads {@code text}.
     *
     * @throws InvalidRecurrence naming the part and the rule it breaks
     */
    public static RecurrenceRule parse(String text) {
        if (text == null || text.isBlank()) {
            throw new InvalidRecurrence("a rule is required, e.g. FREQ=WEEKLY;BYDAY=MO;COUNT=4");
        }
        if (text.length() > MAX_LENGTH) {
            throw new InvalidRecurrence("the rule is longer than " + MAX_LENGTH + " characters");
        }
        String body = text.strip();
        if (body.regionMatches(true, 0, "RRULE:", 0, 6)) {
            body = body.substring(6);
        }
        Map<String, String> parts = parts(body);
        Frequency frequency = frequency(parts.remove("FREQ"));
        int interval = interval(parts.remove("INTERVAL"));
        Set<DayOfWeek> days = days(parts.remove("BYDAY"), frequency);
        String count = parts.remove("COUNT");
        String until = parts.remove("UNTIL");
        if (!parts.isEmpty()) {
            throw new InvalidRecurrence("unsupported part "
                    + parts.keySet().iterator().next() + "; a series takes FREQ, INTERVAL, BYDAY, COUNT and UNTIL");
        }
        if ((count == null) == (until == null)) {
            throw new InvalidRecurrence("give exactly one of COUNT and UNTIL, so the series ends");
        }
        if (count != null) {
            return new RecurrenceRule(frequency, interval, days, count(count), null, null);
        }
        if (until.length() == 8) {
            return new RecurrenceRule(frequency, interval, days, null, date(until), null);
        }
        return new RecurrenceRule(frequency, interval, days, null, null, instant(until));
    }

    private static Map<String, String> parts(String body) {
        Map<String, String> parts = new HashMap<>();
        for (String part : body.split(";", -1)) {
            int eq = part.indexOf('=');
            if (eq <= 0 || eq == part.length() - 1) {
                throw new InvalidRecurrence("'" + part + "' is not NAME=VALUE");
            }
            String name = part.substring(0, eq).strip().toUpperCase(Locale.ROOT);
            if (parts.put(name, part.substring(eq + 1).strip().toUpperCase(Locale.ROOT)) != null) {
                throw new InvalidRecurrence(name + " is given twice");
            }
        }
        return parts;
    }

    private static Frequency frequency(String value) {
        if (value == null) {
            throw new InvalidRecurrence("FREQ is required (DAILY or WEEKLY)");
        }
        return switch (value) {
            case "DAILY" -> Frequency.DAILY;
            case "WEEKLY" -> Frequency.WEEKLY;
            default -> throw new InvalidRecurrence("FREQ must be DAILY or WEEKLY, not " + value);
        };
    }

    private static int interval(String value) {
        if (value == null) {
            return 1;
        }
        int interval = number("INTERVAL", value);
        if (interval < 1 || interval > MAX_INTERVAL) {
            throw new InvalidRecurrence("INTERVAL must be between 1 and " + MAX_INTERVAL);
        }
        return interval;
    }

    private static Set<DayOfWeek> days(String value, Frequency frequency) {
        if (value == null) {
            return Set.of();
        }
        if (frequency != Frequency.WEEKLY) {
            throw new InvalidRecurrence("BYDAY is for FREQ=WEEKLY only");
        }
        EnumSet<DayOfWeek> days = EnumSet.noneOf(DayOfWeek.class);
        for (String day : value.split(",", -1)) {
            DayOfWeek d = DAYS.get(day.strip());
            if (d == null) {
                throw new InvalidRecurrence("BYDAY takes MO, TU, WE, TH, FR, SA, SU; not '" + day + "'");
            }
            if (!days.add(d)) {
                throw new InvalidRecurrence("BYDAY names " + day + " twice");
            }
        }
        return days;
    }

    private static int count(String value) {
        int count = number("COUNT", value);
        if (count < 1 || count > Recurrence.MAX_OCCURRENCES) {
            throw new InvalidRecurrence("COUNT must be between 1 and " + Recurrence.MAX_OCCURRENCES);
        }
        return count;
    }

    private static int number(String name, String value) {
        if (value.length() > 4 || !value.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new InvalidRecurrence(name + " must be a small whole number, not " + value);
        }
        return Integer.parseInt(value);
    }

    private static LocalDate date(String value) {
        try {
            return LocalDate.parse(value, DateTimeFormatter.BASIC_ISO_DATE);
        } catch (DateTimeParseException e) {
            throw new InvalidRecurrence("UNTIL must be YYYYMMDD or YYYYMMDDTHHMMSSZ, not " + value);
        }
    }

    private static Instant instant(String value) {
        if (!value.matches("[0-9]{8}T[0-9]{6}Z?")) {
            throw new InvalidRecurrence("UNTIL must be YYYYMMDD or YYYYMMDDTHHMMSSZ, not " + value);
        }
        if (!value.endsWith("Z")) {
            throw new InvalidRecurrence("UNTIL as a date-time must be in UTC (YYYYMMDDTHHMMSSZ), not " + value);
        }
        try {
            return UNTIL_INSTANT.parse(value, Instant::from);
        } catch (DateTimeParseException e) {
            throw new InvalidRecurrence("UNTIL must be YYYYMMDD or YYYYMMDDTHHMMSSZ, not " + value);
        }
    }

    /** A rule a series may not use; the message names the part and what it must be. */
    public static final class InvalidRecurrence extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public InvalidRecurrence(String message) {
            super(message, null, false, false);
        }
    }
}
