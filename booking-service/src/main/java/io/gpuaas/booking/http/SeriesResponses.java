package io.gpuaas.booking.http;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.BookingEvent.RefusedOccurrence;
import io.micronaut.core.annotation.Introspected;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MutableHttpResponse;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Turns a series decision (or its absence within the wait) into the HTTP answer. */
final class SeriesResponses {

    static final String SERIES_PATH = "/api/v1/series/";

    private SeriesResponses() {}

    /**
     * The answer to {@code POST /api/v1/series}.
     *
     * @param id        the series id
     * @param tenant    its tenant
     * @param pool      its pool
     * @param rule      the RRULE as requested
     * @param timeZone  the zone it was expanded in
     * @param mode      {@code each} or {@code all-or-none}
     * @param confirmed the booked occurrences, each a booking carrying {@code seriesId}
     * @param refused   the occurrences not booked, each with its reason
     */
    @Introspected
    public record SeriesAnswer(
            String id,
            String tenant,
            String pool,
            String rule,
            String timeZone,
            String mode,
            List<Booking> confirmed,
            List<RefusedOccurrence> refused) {}

    /**
     * {@code GET /api/v1/series/{id}}: the occurrences that were booked, in order of start, in their current states.
     *
     * @param id          the series id
     * @param tenant      its tenant
     * @param pool        its pool
     * @param occurrences its bookings
     */
    @Introspected
    public record SeriesState(String id, String tenant, String pool, List<Booking> occurrences) {}

    /**
     * The answer to {@code DELETE /api/v1/series/{id}}.
     *
     * @param id        the series id
     * @param from      occurrences still to start at or after this instant were cancelled
     * @param cancelled their booking ids, in order of start
     */
    @Introspected
    public record SeriesCancelAnswer(String id, Instant from, List<String> cancelled) {}

    static MutableHttpResponse<?> toResponse(
            Optional<BookingEvent> decision, String requestId, String seriesId, String path) {
        if (decision.isEmpty()) {
            return HttpResponse.accepted(URI.create(SERIES_PATH + seriesId))
                    .body(new BookingRequests.Pending(requestId, seriesId, "PENDING"));
        }
        return switch (decision.get()) {
            case BookingEvent.SeriesDecided e -> decided(e, path);
            case BookingEvent.SeriesCancelled e ->
                HttpResponse.ok(new SeriesCancelAnswer(e.seriesId(), e.from(), e.cancelled()));
            case BookingEvent.BookingRejected e -> DecisionResponses.rejected(e, path);
            default -> DecisionResponses.toResponse(decision, requestId, seriesId, path);
        };
    }

    /** 201 when at least one occurrence was booked; 409 with every refusal when none was. */
    private static MutableHttpResponse<?> decided(BookingEvent.SeriesDecided e, String path) {
        String mode =
                e.mode() == io.gpuaas.events.booking.BookingCommand.SeriesMode.ALL_OR_NONE ? "all-or-none" : "each";
        if (e.confirmed().isEmpty()) {
            String rule = "all-or-none".equals(mode) ? "SERIES_ALL_OR_NONE" : "SERIES_REFUSED";
            String detail = "all-or-none".equals(mode)
                    ? "nothing was booked: " + refusedCount(e) + " of "
                            + e.refused().size() + " occurrences were refused and the series is all or none"
                    : "no occurrence of the series could be booked";
            return new ProblemException(409, rule, "recurrence", detail)
                    .with("seriesId", e.seriesId())
                    .with("refused", e.refused())
                    .with("requestId", e.requestId())
                    .response(path);
        }
        return HttpResponse.created(
                new SeriesAnswer(
                        e.seriesId(), e.tenant(), e.pool(), e.rule(), e.timeZone(), mode, e.confirmed(), e.refused()),
                URI.create(SERIES_PATH + e.seriesId()));
    }

    private static long refusedCount(BookingEvent.SeriesDecided e) {
        return e.refused().stream()
                .filter(r -> !"SERIES_ALL_OR_NONE".equals(r.reason()))
                .count();
    }
}
