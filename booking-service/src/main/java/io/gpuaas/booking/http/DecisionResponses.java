package io.gpuaas.booking.http;

import io.gpuaas.booking.model.Rejection;
import io.gpuaas.events.booking.BookingEvent;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MutableHttpResponse;
import java.net.URI;
import java.util.Optional;

/** Turns a decision (or its absence within the wait) into the HTTP answer. */
final class DecisionResponses {

    static final String BOOKINGS_PATH = "/api/v1/bookings/";
    static final String WAITLIST_PATH = "/api/v1/waitlist/";

    private DecisionResponses() {}

    static MutableHttpResponse<?> toResponse(
            Optional<BookingEvent> decision, String requestId, String bookingId, String path) {
        if (decision.isEmpty()) {
            return HttpResponse.accepted(URI.create(BOOKINGS_PATH + bookingId))
                    .body(new BookingRequests.Pending(requestId, bookingId, "PENDING"));
        }
        return switch (decision.get()) {
            case BookingEvent.BookingConfirmed e ->
                HttpResponse.created(
                        e.booking(), URI.create(BOOKINGS_PATH + e.booking().id()));
            case BookingEvent.BookingCancelled e -> HttpResponse.ok(e.booking());
            case BookingEvent.BookingExtended e -> HttpResponse.ok(e.booking());
            case BookingEvent.BookingRejected e -> rejected(e, path);
            // Only a create's own decision answers with an activation (book now): the booking was created.
            case BookingEvent.BookingActivated e ->
                HttpResponse.created(
                        e.booking(), URI.create(BOOKINGS_PATH + e.booking().id()));
            case BookingEvent.BookingCompleted e -> HttpResponse.ok(e.booking());
            case BookingEvent.BookingReleased e -> HttpResponse.ok(e.booking());
            // A move carries no request id, so it never answers a request; were one to arrive here, the booking is
            // the state to show.
            case BookingEvent.BookingMoved e -> HttpResponse.ok(e.booking());
            // Accepted, not confirmed: the booking exists and holds its units, but waits for an admin.
            case BookingEvent.BookingPendingApproval e ->
                HttpResponse.accepted(URI.create(BOOKINGS_PATH + e.booking().id()))
                        .body(e.booking());
            case BookingEvent.BookingApprovalDecided e -> HttpResponse.ok(e.booking());
            // Series answers are read by SeriesResponses; a booking request never waits for one.
            case BookingEvent.SeriesDecided e -> HttpResponse.ok(e);
            case BookingEvent.SeriesCancelled e -> HttpResponse.ok(e);
            // Did not fit and waits: accepted, the entry at its own address (booked later under the same id).
            case BookingEvent.BookingWaitlisted e ->
                HttpResponse.accepted(URI.create(WAITLIST_PATH + e.entry().id()))
                        .body(e.entry());
            case BookingEvent.WaitlistEnded e -> HttpResponse.ok(e.entry());
            case BookingEvent.WorkloadKeepDecided e -> KeepController.answer(e, path);
        };
    }

    static MutableHttpResponse<?> rejected(BookingEvent.BookingRejected e, String path) {
        Rejection rule = parse(e.reason());
        ProblemException problem = new ProblemException(
                rule == null ? 409 : rule.httpStatus(), e.reason(), rule == null ? null : rule.field(), e.message());
        if (rule == Rejection.CAPACITY) {
            problem.with("conflicts", e.conflicts()).with("earliestStart", e.earliestStart());
        }
        if (e.budget() != null) {
            problem.with("budget", e.budget());
        }
        problem.with("requestId", e.requestId());
        return problem.response(path);
    }

    private static Rejection parse(String reason) {
        try {
            return Rejection.valueOf(reason);
        } catch (IllegalArgumentException | NullPointerException e) {
            return null;
        }
    }
}
