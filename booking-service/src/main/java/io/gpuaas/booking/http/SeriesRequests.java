package io.gpuaas.booking.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpuaas.booking.http.BookingRequests.CreateBookingRequest;
import io.gpuaas.booking.model.RecurrenceRule;
import io.gpuaas.events.booking.BookingCommand.SeriesMode;
import io.micronaut.core.annotation.Introspected;
import io.micronaut.core.annotation.Nullable;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** The request body of {@code POST /api/v1/series}: a booking request with a recurrence and a mode. */
public final class SeriesRequests {

    private SeriesRequests() {}

    /**
     * How the series repeats.
     *
     * @param rule     RFC 5545 RRULE value, e.g. {@code FREQ=WEEKLY;BYDAY=MO,WE;COUNT=6}
     * @param timeZone IANA zone the rule is expanded in; absent: UTC
     */
    @Introspected
    public record RecurrenceRequest(
            @Schema(example = "FREQ=WEEKLY;BYDAY=MO,WE;COUNT=6")
            String rule,

            @Nullable @Schema(example = "Europe/Berlin") String timeZone) {}

    /**
     * {@code POST /api/v1/series}: the first occurrence as a booking request takes it ({@code start} required, not
     * "now"), plus how it repeats.
     *
     * @param pool       pool id from {@code GET /api/v1/pools}
     * @param quantity   units per occurrence
     * @param start      inclusive start of the first occurrence (RFC 3339, aligned)
     * @param end        exclusive end of the first occurrence (aligned); exactly one of {@code end} and
     *                   {@code duration}
     * @param namespace  a namespace the tenant owns
     * @param purpose    optional free text
     * @param tenant     the tenant: required from admins, optional for a tenant (its own)
     * @param duration   instead of {@code end}: each occurrence's length (ISO 8601)
     * @param profile    on a flexible pool, the MIG profile of each unit
     * @param recurrence how it repeats
     * @param mode       {@code each} (default) or {@code all-or-none}
     */
    @Introspected
    public record CreateSeriesRequest(
            String pool,
            Integer quantity,

            @Schema(type = "string", format = "date-time") Instant start,

            @Nullable Instant end,
            String namespace,
            @Nullable String purpose,
            @Nullable String tenant,

            @Nullable @Schema(type = "string", example = "PT2H")
            Duration duration,

            @Nullable @Schema(type = "string", example = "3g.71gb")
            String profile,

            RecurrenceRequest recurrence,

            @Nullable @Schema(allowableValues = {"each", "all-or-none"})
            String mode) {

        SeriesMode seriesMode() {
            return "all-or-none".equals(mode) ? SeriesMode.ALL_OR_NONE : SeriesMode.EACH;
        }

        /** The first occurrence as a booking request. */
        CreateBookingRequest booking() {
            return new CreateBookingRequest(pool, quantity, start, end, namespace, purpose, tenant, duration, profile);
        }

        /** The body as the idempotency fingerprint sees it. */
        String canonical(String actingTenant) {
            Map<String, Object> fields = new TreeMap<>();
            fields.put("booking", booking().canonical(actingTenant));
            fields.put("rule", recurrence.rule());
            fields.put("timeZone", String.valueOf(recurrence.timeZone()));
            fields.put("mode", seriesMode().name());
            return fields.toString();
        }
    }

    /**
     * Reads the body: the booking fields at the top level (as {@code POST /api/v1/bookings} takes them), plus
     * {@code recurrence} and {@code mode}.
     */
    static CreateSeriesRequest create(String body) {
        CreateBookingRequest booking = BookingRequests.create(body);
        JsonNode o = BookingRequests.object(body);
        if ("now".equals(o.path("start").textValue())) {
            throw ProblemException.badRequest("INVALID_FIELD", "start", "a series starts at a given time, not now");
        }
        JsonNode r = o.get("recurrence");
        if (r == null || r.isNull()) {
            throw ProblemException.badRequest("REQUIRED", "recurrence", "recurrence is required");
        }
        if (!r.isObject()) {
            throw ProblemException.badRequest(
                    "INVALID_FIELD", "recurrence", "recurrence must be an object with rule and timeZone");
        }
        String rule =
                RequestValidator.text("recurrence.rule", BookingRequests.string(r, "rule"), RecurrenceRule.MAX_LENGTH);
        String zone = RequestValidator.text(
                "recurrence.timeZone", BookingRequests.string(r, "timeZone"), RequestValidator.MAX_ID);
        return new CreateSeriesRequest(
                booking.pool(),
                booking.quantity(),
                booking.start(),
                booking.end(),
                booking.namespace(),
                booking.purpose(),
                booking.tenant(),
                booking.duration(),
                booking.profile(),
                new RecurrenceRequest(rule, zone),
                mode(BookingRequests.string(o, "mode")));
    }

    private static String mode(String text) {
        if (text == null) {
            return "each";
        }
        String mode = text.toLowerCase(Locale.ROOT).replace('_', '-');
        if (!mode.equals("each") && !mode.equals("all-or-none")) {
            throw ProblemException.badRequest("INVALID_FIELD", "mode", "mode must be \"each\" or \"all-or-none\"");
        }
        return mode;
    }
}
