package io.gpuaas.booking.http;

import io.gpuaas.booking.kafka.IdempotencyKeys;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingCommand.DecideApproval;
import io.gpuaas.events.booking.Caller;
import io.micronaut.core.annotation.Introspected;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Header;
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
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * An admin approves or denies a booking awaiting approval (PENDING_APPROVAL). Admins only: anybody else gets 403
 * before the booking is looked up, so the answer says nothing about which bookings exist. The decision goes through the
 * pool's single writer like every change; the list to decide on is {@code GET /api/v1/bookings?state=PENDING_APPROVAL}.
 */
@Controller("/api/v1/bookings")
@Secured(SecurityRule.IS_AUTHENTICATED)
public class ApprovalController {

    /**
     * The body of an approval.
     *
     * @param decision {@code approve} or {@code deny}
     * @param reason   free text for the tenant, or null
     */
    @Introspected
    public record ApprovalRequest(
            @Schema(allowableValues = {"approve", "deny"}) String decision,
            @Nullable String reason) {

        /** The body as the idempotency fingerprint sees it. */
        String canonical() {
            Map<String, Object> fields = new TreeMap<>();
            fields.put("decision", decision);
            fields.put("reason", reason);
            return fields.toString();
        }
    }

    private final DecisionGateway gateway;
    private final CallerGuard guard;
    private final BookingAccess access;

    public ApprovalController(DecisionGateway gateway, CallerGuard guard, BookingAccess access) {
        this.gateway = gateway;
        this.guard = guard;
        this.access = access;
    }

    @Operation(
            summary = "Approve or deny a booking awaiting approval (admins only)",
            description = "A booking over its pool's approval threshold waits in PENDING_APPROVAL, holding its units. "
                    + "approve: 200 with the booking CONFIRMED (it becomes ACTIVE at its start as usual); deny: 200 "
                    + "with the booking DENIED, its units free. Both are told to the tenant as an ApprovalDecided "
                    + "notice. 403 ADMIN_ONLY for anyone but an admin; 404 for an unknown booking; 409 "
                    + "INVALID_STATE when it no longer awaits approval (decided, withdrawn or expired). "
                    + "Idempotency-Key as for POST /api/v1/bookings.")
    @RequestBody(
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON,
                            schema = @Schema(implementation = ApprovalRequest.class)))
    @Post(uri = "/{id}/approval", consumes = MediaType.ALL, produces = MediaType.APPLICATION_JSON)
    public CompletableFuture<MutableHttpResponse<?>> decide(
            HttpRequest<?> request,
            @PathVariable String id,
            @Nullable @Body String body,
            @Nullable @Header("Idempotency-Key") String idempotencyKey,
            Authentication authentication) {
        Caller caller = guard.admit(authentication);
        if (!caller.admin()) {
            throw new ProblemException(403, "ADMIN_ONLY", null, "only an admin approves or denies bookings");
        }
        ApprovalRequest req = BookingRequests.approval(body);
        String key = RequestValidator.idempotencyKey(idempotencyKey);
        String fingerprint =
                key == null ? null : IdempotencyKeys.fingerprint("POST", request.getPath(), req.canonical());
        Booking booking = access.acting(id, caller, key, fingerprint);
        String requestId = UUID.randomUUID().toString();
        DecideApproval command = new DecideApproval(
                requestId,
                key,
                BookingAccess.actorFor(caller, booking),
                booking.pool(),
                id,
                "approve".equals(req.decision()),
                req.reason(),
                Instant.now(),
                fingerprint);
        return gateway.decide(command)
                .thenApply(decision -> DecisionResponses.toResponse(decision, requestId, id, request.getPath()));
    }
}
