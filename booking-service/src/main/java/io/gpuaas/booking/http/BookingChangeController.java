package io.gpuaas.booking.http;

import io.gpuaas.booking.http.BookingRequests.ChangeBookingRequest;
import io.gpuaas.booking.kafka.IdempotencyKeys;
import io.gpuaas.booking.model.BookingDecider;
import io.gpuaas.booking.model.BookingPolicy;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingCommand;
import io.gpuaas.events.booking.BookingCommand.ReleaseBooking;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.booking.Caller;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Header;
import io.micronaut.http.annotation.Patch;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.authentication.Authentication;
import io.micronaut.security.rules.SecurityRule;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.parameters.RequestBody;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * Cancel, move and end existing bookings. A tenant acts on its own bookings only (another's is a 404), an admin on
 * any, for its owner. Each write goes through the pool's single writer and waits for its decision.
 */
@Controller("/api/v1/bookings")
@Secured(SecurityRule.IS_AUTHENTICATED)
public class BookingChangeController {

    private final BookingPolicy policy;
    private final DecisionGateway gateway;
    private final CallerGuard guard;
    private final BookingAccess access;

    public BookingChangeController(
            BookingDecider decider, DecisionGateway gateway, CallerGuard guard, BookingAccess access) {
        this.policy = decider.policy();
        this.gateway = gateway;
        this.guard = guard;
        this.access = access;
    }

    @Operation(
            summary = "Cancel a booking; its units are free again",
            description =
                    "Idempotency-Key as for POST: " + "a key first used here cannot later create or move a booking.")
    @Delete(uri = "/{id}", produces = MediaType.APPLICATION_JSON)
    public CompletableFuture<MutableHttpResponse<?>> cancel(
            HttpRequest<?> request,
            @PathVariable String id,
            @Nullable @Header("Idempotency-Key") String idempotencyKey,
            Authentication authentication) {
        String key = RequestValidator.idempotencyKey(idempotencyKey);
        String fingerprint = key == null ? null : IdempotencyKeys.fingerprint("DELETE", request.getPath(), "");
        return send(
                request,
                id,
                guard.admit(authentication),
                key,
                fingerprint,
                change -> new BookingCommand.CancelBooking(
                        change.requestId(), key, change.actor(), change.pool(), id, change.at(), fingerprint));
    }

    @Operation(
            summary = "End an ACTIVE booking now: its remaining time is released",
            description = "200 with the booking RELEASED (its window as booked; its units are free from the decision's "
                    + "instant, its ClusterQueue drains as at a normal end). 409 INVALID_STATE when the booking is not "
                    + "ACTIVE (cancel one that has not started). A tenant ends only its own bookings (another's: 404), an "
                    + "admin any. No body. Idempotency-Key as for POST.")
    @Post(uri = "/{id}/end", consumes = MediaType.ALL, produces = MediaType.APPLICATION_JSON)
    public CompletableFuture<MutableHttpResponse<?>> end(
            HttpRequest<?> request,
            @PathVariable String id,
            @Nullable @Header("Idempotency-Key") String idempotencyKey,
            Authentication authentication) {
        String key = RequestValidator.idempotencyKey(idempotencyKey);
        String fingerprint = key == null ? null : IdempotencyKeys.fingerprint("POST", request.getPath(), "");
        return send(
                request,
                id,
                guard.admit(authentication),
                key,
                fingerprint,
                change -> new ReleaseBooking(
                        change.requestId(),
                        key,
                        change.actor(),
                        change.pool(),
                        id,
                        ReleaseBooking.Reason.END_NOW,
                        change.at(),
                        fingerprint));
    }

    @Operation(
            summary = "Extend or shorten a booking; checked like a new booking",
            description = "start and end as for POST (RFC 3339, aligned, within the policy); a missing start keeps the "
                    + "current one. Instead of end, `duration` (ISO 8601, e.g. PT1H) extends an ACTIVE booking from now: "
                    + "the new end is now + duration rounded up to the alignment (409 INVALID_STATE for a booking that "
                    + "has not started).")
    @RequestBody(
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON,
                            schema = @Schema(implementation = ChangeBookingRequest.class)))
    @Patch(uri = "/{id}", consumes = MediaType.ALL, produces = MediaType.APPLICATION_JSON)
    public CompletableFuture<MutableHttpResponse<?>> change(
            HttpRequest<?> request,
            @PathVariable String id,
            @Nullable @Body String body,
            @Nullable @Header("Idempotency-Key") String idempotencyKey,
            Authentication authentication) {
        Caller caller = guard.admit(authentication);
        String key = RequestValidator.idempotencyKey(idempotencyKey);
        ChangeBookingRequest req = BookingRequests.change(body);
        BookingRequests.requireEndOrDuration(req.end(), req.duration());
        Booking booking = access.find(id, caller).orElse(null);
        Instant start = req.start() != null ? req.start() : booking != null ? booking.start() : null;
        check(req, booking, start);
        String fingerprint =
                key == null ? null : IdempotencyKeys.fingerprint("PATCH", request.getPath(), req.canonical());
        return send(
                request,
                id,
                caller,
                key,
                fingerprint,
                change -> new BookingCommand.ChangeBooking(
                        change.requestId(),
                        key,
                        change.actor(),
                        change.pool(),
                        id,
                        start,
                        req.end(),
                        change.at(),
                        fingerprint,
                        req.duration()));
    }

    /**
     * The path every change shares: the caller must be allowed to act on the booking (or replay its key), the
     * command goes to the pool's writer, and the decision becomes the answer.
     */
    private CompletableFuture<MutableHttpResponse<?>> send(
            HttpRequest<?> request,
            String id,
            Caller caller,
            @Nullable String key,
            @Nullable String fingerprint,
            Function<Change, BookingCommand> command) {
        Booking booking = access.acting(id, caller, key, fingerprint);
        Change change = new Change(
                UUID.randomUUID().toString(), BookingAccess.actorFor(caller, booking), booking.pool(), Instant.now());
        return gateway.decide(command.apply(change))
                .thenApply(
                        decision -> DecisionResponses.toResponse(decision, change.requestId(), id, request.getPath()));
    }

    /** What every change command carries besides its own fields. */
    private record Change(String requestId, Caller actor, String pool, Instant at) {}

    /**
     * The decider's own window rules, so what it would refuse never becomes a 202 followed by a rejection. An extension
     * from now is checked only when the view shows the booking ACTIVE: a booking that just started may still read as
     * CONFIRMED here, and the decider answers a truly upcoming one with INVALID_STATE.
     */
    private void check(ChangeBookingRequest req, Booking booking, Instant start) {
        if (req.duration() != null) {
            policy.checkDuration(req.duration()).ifPresent(BookingController::refuse);
            if (booking == null || booking.state() != BookingState.ACTIVE || !start.equals(booking.start())) {
                return;
            }
        }
        Instant now = Instant.now();
        Instant end = req.end() != null ? req.end() : policy.endAfter(now, req.duration());
        if (start != null && !start.isBefore(end)) {
            throw ProblemException.badRequest("INVALID_WINDOW", "end", "start must be before end");
        }
        if (booking != null) {
            policy.checkMove(booking.start(), booking.quantity(), start, end, now)
                    .ifPresent(BookingController::refuse);
        }
    }
}
