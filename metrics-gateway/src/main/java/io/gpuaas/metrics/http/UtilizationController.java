package io.gpuaas.metrics.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.gpuaas.events.Json;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.Caller;
import io.gpuaas.kit.http.Problem;
import io.gpuaas.kit.security.CallerResolver;
import io.gpuaas.metrics.ledger.BookingLedger;
import io.gpuaas.metrics.ledger.Ledger;
import io.gpuaas.metrics.ledger.LedgerSnapshots;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.authentication.Authentication;
import io.micronaut.security.rules.SecurityRule;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/v1/usage/bookings/{id}/utilization?minutes=N}: a booking's busy and idle GPUs per minute over the
 * last N minutes (1..1440, default 60) before the ledger's {@code asOf} (whole minutes: the current, partial minute
 * is not shown), as the ledger attributes device time to the booking: device-seconds / 60, not weighted by the MIG
 * fraction. A tenant sees its own bookings only; another tenant's booking answers 404 like an unknown one, so
 * existence does not leak. 400 {@code MINUTES}, 503 {@code LEDGER_CATCHING_UP}.
 */
@Controller("/api/v1/usage/bookings")
@Secured(SecurityRule.IS_AUTHENTICATED)
public class UtilizationController {

    private static final long MINUTE = 60_000;

    private final LedgerSnapshots ledger;
    private final CallerResolver callers;

    public UtilizationController(LedgerSnapshots ledger, CallerResolver callers) {
        this.ledger = ledger;
        this.callers = callers;
    }

    @Get(uri = "/{id}/utilization", produces = MediaType.APPLICATION_JSON)
    @ExecuteOn(TaskExecutors.BLOCKING)
    public HttpResponse<?> utilization(
            @PathVariable String id,
            @Nullable @QueryValue String minutes,
            Authentication authentication,
            HttpRequest<?> request) {
        String path = request.getPath();
        Integer window = minutes(minutes);
        if (window == null) {
            return Problem.of(
                            HttpStatus.BAD_REQUEST,
                            "MINUTES",
                            "minutes",
                            "minutes must be a whole number from 1 to " + LedgerSnapshots.UTILIZATION_MINUTES)
                    .response(path);
        }
        Ledger current = ledger.current().orElse(null);
        if (current == null) {
            return CatchingUp.response(path);
        }
        Caller caller = callers.caller(authentication);
        BookingLedger booking = current.bookings().get(id);
        if (booking == null
                || !(caller.admin() || booking.facts().booking().tenant().equals(caller.tenant()))) {
            return Problem.of(HttpStatus.NOT_FOUND, "BOOKING_NOT_FOUND", "id", "no such booking")
                    .response(path);
        }
        try {
            return HttpResponse.ok(Json.mapper().writeValueAsString(body(booking, current.asOf(), window)))
                    .contentType(MediaType.APPLICATION_JSON);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render utilization", e);
        }
    }

    private static Integer minutes(String value) {
        if (value == null || value.isBlank()) {
            return 60;
        }
        try {
            int n = Integer.parseInt(value.strip());
            return n >= 1 && n <= LedgerSnapshots.UTILIZATION_MINUTES ? n : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Map<String, Object> body(BookingLedger ledger, Instant asOf, int minutes) {
        Booking booking = ledger.facts().booking();
        long end = asOf == null ? Long.MIN_VALUE : Math.floorDiv(asOf.toEpochMilli(), MINUTE) * MINUTE;
        List<Map<String, Object>> points = new ArrayList<>();
        if (asOf != null) {
            ledger.minutes().subMap(end - minutes * MINUTE, true, end, false).forEach((minute, ms) -> {
                Map<String, Object> point = new LinkedHashMap<>();
                point.put("minute", Instant.ofEpochMilli(minute).toString());
                point.put("busy", units(ms[0]));
                point.put("idle", units(ms[1]));
                points.add(point);
            });
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("bookingId", booking.id());
        body.put("tenant", booking.tenant());
        body.put("pool", booking.pool());
        body.put("quantity", booking.quantity());
        body.put("asOf", asOf == null ? null : Instant.ofEpochMilli(end).toString());
        body.put("unit", "GPUs");
        body.put("points", points);
        return body;
    }

    /** Average devices over a minute: device-milliseconds / 60,000, to 6 decimals. */
    private static double units(long deviceMillis) {
        return BigDecimal.valueOf(deviceMillis)
                .divide(BigDecimal.valueOf(MINUTE), 6, RoundingMode.HALF_EVEN)
                .doubleValue();
    }
}
