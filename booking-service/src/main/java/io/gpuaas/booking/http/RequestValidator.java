package io.gpuaas.booking.http;

import io.gpuaas.booking.model.BookingPolicy;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.regex.Pattern;

/**
 * The bounds of every value a request may carry, checked before anything is published: what the decider or the
 * command schema would refuse later must be a 4xx here. Instants in queries must lie within the policy horizon
 * ({@code max-advance + max-duration} either side of now), so no arithmetic on them can overflow.
 */
public final class RequestValidator {

    /** Longest {@code purpose}. */
    public static final int MAX_PURPOSE = 256;
    /** Longest pool id, booking id, state filter: identifiers, not prose. */
    public static final int MAX_ID = 64;
    /** Longest {@code Idempotency-Key} (a UUID is 36). */
    public static final int MAX_IDEMPOTENCY_KEY = 128;
    /** Longest cursor this API hands out is well under this. */
    public static final int MAX_CURSOR = 256;
    /** Shortest availability step. */
    public static final Duration MIN_STEP = Duration.ofMinutes(1);

    /** A Kubernetes namespace name (and a tenant name, which becomes part of a ClusterQueue name). */
    private static final Pattern DNS_1123_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
    /** Visible ASCII only: the key is echoed in answers and logs. */
    private static final Pattern IDEMPOTENCY_KEY = Pattern.compile("[\\x21-\\x7e]{1," + MAX_IDEMPOTENCY_KEY + "}");

    private final BookingPolicy policy;

    public RequestValidator(BookingPolicy policy) {
        this.policy = policy;
    }

    /** How far from now a query instant may lie, either way. */
    public Duration horizon() {
        return policy.maxAdvance().plus(policy.maxDuration());
    }

    /** An instant query parameter: RFC 3339 and within the horizon; null when absent. */
    public Instant queryInstant(String field, String text, Instant now) {
        Instant t = Rfc3339.parse("INVALID_PARAMETER", field, text);
        if (t != null && (t.isBefore(now.minus(horizon())) || t.isAfter(now.plus(horizon())))) {
            throw ProblemException.badRequest(
                    "OUTSIDE_HORIZON", field, field + " must lie within " + horizon() + " of now");
        }
        return t;
    }

    /** A duration parameter (ISO 8601, e.g. PT1H) within {@code [min, max]}, else 400 {@code rule}; null when absent. */
    public static Duration duration(String rule, String field, String text, Duration min, Duration max) {
        if (text == null) {
            return null;
        }
        Duration d;
        try {
            d = text.length() > 32 ? null : Duration.parse(text);
        } catch (DateTimeParseException e) {
            d = null;
        }
        if (d == null || d.compareTo(min) < 0 || d.compareTo(max) > 0) {
            throw ProblemException.badRequest(
                    rule,
                    field,
                    field + " must be an ISO 8601 duration between " + min + " and " + max + ", e.g. PT1H");
        }
        return d;
    }

    /** A whole-number parameter within {@code [min, max]}, else 400 {@code rule}; {@code fallback} when absent. */
    public static int integer(String rule, String field, String text, int min, int max, int fallback) {
        if (text == null) {
            return fallback;
        }
        try {
            int value = text.length() > 10 ? min - 1 : Integer.parseInt(text);
            if (value >= min && value <= max) {
                return value;
            }
        } catch (NumberFormatException e) {
            // answered below, with the range
        }
        throw ProblemException.badRequest(
                rule,
                field,
                field + " must be a whole number "
                        + (max == Integer.MAX_VALUE ? "of at least " + min : "between " + min + " and " + max));
    }

    /** Free text of at most {@code max} characters (null stays null). */
    public static String text(String field, String value, int max) {
        if (value != null && value.length() > max) {
            throw ProblemException.badRequest(
                    "TOO_LONG", field, field + " may be at most " + max + " characters, got " + value.length());
        }
        return value;
    }

    /** A namespace or tenant: a DNS-1123 label (lower-case letters, digits and '-', at most 63). */
    public static String dnsLabel(String field, String value) {
        if (value != null && !DNS_1123_LABEL.matcher(value).matches()) {
            throw ProblemException.badRequest(
                    "INVALID_NAME",
                    field,
                    field + " must be a DNS-1123 label: at most 63 "
                            + "lower-case letters, digits or '-', starting and ending with a letter or digit");
        }
        return value;
    }

    /** The {@code Idempotency-Key} header: absent or blank is no key; otherwise visible ASCII, bounded. */
    public static String idempotencyKey(String header) {
        if (header == null || header.isBlank()) {
            return null;
        }
        if (!IDEMPOTENCY_KEY.matcher(header).matches()) {
            throw ProblemException.badRequest(
                    "INVALID_IDEMPOTENCY_KEY",
                    "Idempotency-Key",
                    "Idempotency-Key must be 1 to " + MAX_IDEMPOTENCY_KEY + " visible ASCII characters");
        }
        return header;
    }
}
