package io.gpuaas.booking.http;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpuaas.events.Json;
import io.micronaut.core.annotation.Introspected;
import io.micronaut.core.annotation.Nullable;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.TreeMap;

/**
 * Request bodies of the booking API. Read field by field from the JSON tree rather than bound by a mapper, so
 * every error names its field and says what is wrong in the caller's terms (never a Java type), and every value
 * is bounded before it can reach a command.
 */
public final class BookingRequests {

    /** Duplicate members and trailing garbage are errors: the caller's intent would be ambiguous. */
    private static final ObjectMapper TREE = Json.mapper()
            .copy()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private BookingRequests() {}

    /** What {@code start} says when the booking starts at the decision: also what an absent start means. */
    public static final String NOW = "now";

    /**
     * {@code POST /api/v1/bookings}.
     *
     * @param pool      pool id from {@code GET /api/v1/pools}
     * @param quantity  units of the pool's resource
     * @param start     inclusive start (RFC 3339, aligned to the policy's alignment); absent or {@code "now"}: from the
     *                  instant the booking is decided (null here)
     * @param end       exclusive end (aligned); exactly one of {@code end} and {@code duration}
     * @param namespace a namespace the tenant owns (DNS-1123 label)
     * @param purpose   optional free text, at most 256 characters
     * @param tenant    the tenant the booking is for: required from admins, optional for a tenant (its own)
     * @param duration  instead of {@code end}: ISO 8601 (e.g. {@code PT2H}); the end is start + duration rounded up to
     *                  the alignment
     * @param profile   on a flexible pool, the MIG profile of each unit (one of the pool's {@code bookableProfiles});
     *                  absent: whole GPUs. On a static pool absent or the pool's own profile
     */
    @Introspected
    public record CreateBookingRequest(
            String pool,
            Integer quantity,

            @Nullable @Schema(type = "string", description = "RFC 3339 date-time, or \"now\"; absent means now")
            Instant start,

            @Nullable Instant end,
            String namespace,
            @Nullable String purpose,
            @Nullable String tenant,

            @Nullable @Schema(type = "string", example = "PT2H")
            Duration duration,

            @Nullable @Schema(type = "string", example = "3g.71gb")
            String profile,

            @Nullable WaitlistRequest waitlist) {

        /** A request that does not wait. */
        public CreateBookingRequest(
                String pool,
                Integer quantity,
                Instant start,
                Instant end,
                String namespace,
                String purpose,
                String tenant,
                Duration duration,
                String profile) {
            this(pool, quantity, start, end, namespace, purpose, tenant, duration, profile, null);
        }

        /** The latest start the request waits for, or null when it does not wait. */
        Instant latestStart() {
            return waitlist == null ? null : waitlist.latestStart();
        }

        /** The body as the idempotency fingerprint sees it, for {@code tenant} (the one the request acts for). */
        String canonical(String actingTenant) {
            Map<String, Object> fields = new TreeMap<>();
            fields.put("pool", pool);
            fields.put("quantity", quantity);
            fields.put("start", start == null ? NOW : start.toString());
            fields.put("end", end == null ? null : end.toString());
            fields.put("duration", duration == null ? null : duration.toString());
            fields.put("namespace", namespace);
            fields.put("purpose", purpose);
            fields.put("tenant", actingTenant);
            if (profile != null) {
                // Only when given, so a key bound before profiles existed keeps its fingerprint.
                fields.put("profile", profile);
            }
            if (waitlist != null) {
                fields.put("waitlist.latestStart", waitlist.latestStart().toString());
            }
            return write(fields);
        }
    }

    /**
     * {@code waitlist} on a create: rather than a 409 when the window does not fit, wait and be booked as soon as the
     * same quantity and length fit with a start no later than {@code latestStart} (202 with the entry).
     *
     * @param latestStart the latest start accepted (RFC 3339); the entry expires then
     */
    @Introspected
    public record WaitlistRequest(
            @Schema(type = "string", format = "date-time") Instant latestStart) {}

    /**
     * {@code PATCH /api/v1/bookings/{id}}: the new window; a missing start keeps the current one. Exactly one of
     * {@code end} and {@code duration}: a duration extends an ACTIVE booking from now (rounded up to the alignment).
     */
    @Introspected
    public record ChangeBookingRequest(
            @Nullable Instant start,
            @Nullable Instant end,

            @Nullable @Schema(type = "string", example = "PT1H")
            Duration duration) {

        String canonical() {
            Map<String, Object> fields = new TreeMap<>();
            fields.put("start", start == null ? null : start.toString());
            fields.put("end", end == null ? null : end.toString());
            fields.put("duration", duration == null ? null : duration.toString());
            return write(fields);
        }
    }

    /** Answer when the decision took longer than the bounded wait. */
    @Introspected
    public record Pending(String requestId, String bookingId, String status) {}

    static CreateBookingRequest create(String body) {
        JsonNode o = object(body);
        return new CreateBookingRequest(
                RequestValidator.text("pool", string(o, "pool"), RequestValidator.MAX_ID),
                integer(o, "quantity"),
                NOW.equals(o.path("start").textValue()) ? null : instant(o, "start"),
                instant(o, "end"),
                RequestValidator.dnsLabel("namespace", string(o, "namespace")),
                RequestValidator.text("purpose", string(o, "purpose"), RequestValidator.MAX_PURPOSE),
                RequestValidator.dnsLabel("tenant", string(o, "tenant")),
                duration(o, "duration"),
                RequestValidator.text("profile", string(o, "profile"), RequestValidator.MAX_ID),
                waitlist(o));
    }

    /** {@code "waitlist": {"latestStart": "..."}}, or absent. */
    private static WaitlistRequest waitlist(JsonNode o) {
        JsonNode w = o.get("waitlist");
        if (w == null || w.isNull()) {
            return null;
        }
        if (!w.isObject()) {
            throw ProblemException.badRequest(
                    "INVALID_FIELD", "waitlist", "waitlist must be an object with latestStart");
        }
        JsonNode latest = w.get("latestStart");
        if (latest == null || latest.isNull()) {
            throw ProblemException.badRequest("REQUIRED", "waitlist.latestStart", "waitlist.latestStart is required");
        }
        if (!latest.isTextual()) {
            throw ProblemException.badRequest(
                    "INVALID_FIELD",
                    "waitlist.latestStart",
                    "waitlist.latestStart must be an RFC 3339 date-time string, e.g. " + Rfc3339.EXAMPLE);
        }
        return new WaitlistRequest(Rfc3339.parse("INVALID_FIELD", "waitlist.latestStart", latest.textValue()));
    }

    /** {@code {"decision": "approve"|"deny", "reason": ...}}: 400 naming the field otherwise. */
    static ApprovalController.ApprovalRequest approval(String body) {
        JsonNode o = object(body);
        String decision = string(o, "decision");
        require(decision, "decision");
        if (!"approve".equals(decision) && !"deny".equals(decision)) {
            throw ProblemException.badRequest("INVALID_FIELD", "decision", "decision must be approve or deny");
        }
        return new ApprovalController.ApprovalRequest(
                decision, RequestValidator.text("reason", string(o, "reason"), RequestValidator.MAX_PURPOSE));
    }

    static ChangeBookingRequest change(String body) {
        JsonNode o = object(body);
        return new ChangeBookingRequest(instant(o, "start"), instant(o, "end"), duration(o, "duration"));
    }

    /** Exactly one of {@code end} and {@code duration}: 400 naming what is missing or doubled. */
    static void requireEndOrDuration(Instant end, Duration duration) {
        if (end == null && duration == null) {
            throw ProblemException.badRequest("REQUIRED", "end", "end or duration is required");
        }
        if (end != null && duration != null) {
            throw ProblemException.badRequest("INVALID_WINDOW", "duration", "give either end or duration, not both");
        }
    }

    static void require(Object value, String field) {
        if (value == null || value instanceof String s && s.isBlank()) {
            throw ProblemException.badRequest("REQUIRED", field, field + " is required");
        }
    }

    static JsonNode object(String body) {
        if (body == null || body.isBlank()) {
            throw ProblemException.badRequest("MALFORMED_JSON", "body", "a JSON body is required");
        }
        JsonNode node;
        try {
            node = TREE.readTree(body);
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null
                    ? ""
                    : " at line " + e.getLocation().getLineNr() + ", column "
                            + e.getLocation().getColumnNr();
            String what =
                    e.getOriginalMessage() != null && e.getOriginalMessage().startsWith("Duplicate field")
                            ? "a member appears twice"
                            : "the body is not valid JSON";
            throw ProblemException.badRequest("MALFORMED_JSON", "body", what + where);
        }
        if (node == null || !node.isObject()) {
            throw ProblemException.badRequest("MALFORMED_JSON", "body", "the body must be a JSON object");
        }
        return node;
    }

    static String string(JsonNode o, String field) {
        JsonNode v = o.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual()) {
            throw ProblemException.badRequest("INVALID_FIELD", field, field + " must be a string");
        }
        return v.textValue();
    }

    /** A whole JSON number: {@code 1.5} or {@code "2"} is refused, never rounded or coerced. */
    private static Integer integer(JsonNode o, String field) {
        JsonNode v = o.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isIntegralNumber() || !v.canConvertToInt()) {
            throw ProblemException.badRequest("INVALID_FIELD", field, field + " must be a whole number");
        }
        return v.intValue();
    }

    private static Instant instant(JsonNode o, String field) {
        JsonNode v = o.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual()) {
            throw ProblemException.badRequest(
                    "INVALID_FIELD", field, field + " must be an RFC 3339 date-time string, e.g. " + Rfc3339.EXAMPLE);
        }
        return Rfc3339.parse("INVALID_FIELD", field, v.textValue());
    }

    /** A positive ISO 8601 duration ({@code PT2H}, {@code PT1H30M}, {@code P1DT2H}); its bounds are the policy's. */
    private static Duration duration(JsonNode o, String field) {
        String text = string(o, field);
        if (text == null) {
            return null;
        }
        Duration d;
        try {
            d = text.length() > 32 ? null : Duration.parse(text);
        } catch (DateTimeParseException e) {
            d = null;
        }
        if (d == null || d.isNegative() || d.isZero()) {
            throw ProblemException.badRequest(
                    "INVALID_DURATION", field, field + " must be a positive ISO 8601 duration, e.g. PT2H or PT90M");
        }
        return d;
    }

    private static String write(Map<String, Object> fields) {
        try {
            return Json.mapper().writeValueAsString(fields);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write a canonical request body", e);
        }
    }
}
