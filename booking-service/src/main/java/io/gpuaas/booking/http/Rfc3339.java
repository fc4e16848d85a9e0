package io.gpuaas.booking.http;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Reads instants the way the command schemas write them ({@code format: date-time}, RFC 3339): a 4-digit year,
 * seconds, at most nine fraction digits and {@code Z} or an offset. Java's own parser also takes
 * {@code +1000000000-01-01T00:00:00Z}, which the decider's schema check then refuses as a dead letter.
 */
public final class Rfc3339 {

    private static final Pattern SHAPE =
            Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?(Z|[+-]\\d{2}:\\d{2})");

    static final String EXAMPLE = "2030-01-01T09:00:00Z";

    private Rfc3339() {}

    /**
     * The instant {@code text} names, or a 400 with {@code rule} ({@code INVALID_FIELD} in a body,
     * {@code INVALID_PARAMETER} in a query, as for every other malformed value there) naming {@code field}.
     * Null stays null.
     */
    public static Instant parse(String rule, String field, String text) {
        if (text == null) {
            return null;
        }
        // RFC 3339 allows a lower-case "t" and "z"; Java's formatter does not.
        String upper = text.length() <= 35 ? text.toUpperCase(Locale.ROOT) : text;
        if (SHAPE.matcher(upper).matches()) {
            try {
                return OffsetDateTime.parse(upper, DateTimeFormatter.ISO_OFFSET_DATE_TIME)
                        .toInstant();
            } catch (DateTimeException e) {
                // falls through: a well-shaped but impossible date such as 2030-02-30
            }
        }
        throw ProblemException.badRequest(
                rule,
                field,
                field + " must be an RFC 3339 date-time with " + "a 4-digit year, seconds and Z or an offset, e.g. "
                        + EXAMPLE);
    }
}
