package io.gpuaas.booking.http;

import io.gpuaas.booking.http.BookingRequests.ChangeBookingRequest;
import io.gpuaas.booking.http.BookingRequests.CreateBookingRequest;
import io.gpuaas.booking.kafka.BookingView;
import io.gpuaas.booking.kafka.IdempotencyKeys;
import io.gpuaas.booking.model.BookingDecider;
import io.gpuaas.booking.model.BookingPolicy;
import io.gpuaas.booking.model.Rejection;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingCommand;
import io.gpuaas.events.booking.Caller;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
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
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/** Create, read, cancel and move bookings. Writes go through the single writer of the pool and wait for it. */
@Controller("/api/v1/bookings")
@Secured(SecurityRule.IS_AUTHENTICATED)
public class BookingController {

    private final PoolCatalog pools;
    private final BookingPolicy policy;
    private final BookingView view;
    private final DecisionGateway gateway;
    private final CallerGuard guard;
    private final BookingQuery query;
    private final IdempotencyKeys keys;
    private final RequestValidator validator;

    public BookingController(
            PoolCatalog pools,
            BookingDecider decider,
            BookingView view,
            DecisionGateway gateway,
            CallerGuard guard,
            BookingQuery query,
            IdempotencyKeys keys) {
        this.pools = pools;
        this.policy = decider.policy();
        this.view = view;
        this.gateway = gateway;
        this.guard = guard;
        this.query = query;
        this.keys = keys;
        this.validator = new RequestValidator(policy);
    }

    @Operation(
            summary = "Book units of a pool for a window",
            description = "201 with the CONFIRMED booking, 409 "
                    + "with the conflicting intervals and the earliest start that fits, 202 with Location when the decision "
                    + "takes longer than the bounded wait. Admins must name the tenant they book for (`tenant`, else 422); "
                    + "a tenant may omit it or name itself (another tenant: 403). Idempotency-Key (at most 128 visible ASCII "
                    + "characters) is bound per tenant to the whole request (method, path, body): the same request gets the "
                    + "same answer, any other request with that key 422 IDEMPOTENCY_MISMATCH.")
    @RequestBody(
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON,
                            schema = @Schema(implementation = CreateBookingRequest.class)))
    @Post(consumes = MediaType.ALL, produces = MediaType.APPLICATION_JSON)
    public CompletableFuture<MutableHttpResponse<?>> create(
            HttpRequest<?> request,
            @Nullable @Body String body,
            @Nullable @Header("Idempotency-Key") String idempotencyKey,
            Authentication authentication) {
        Caller caller = guard.admit(authentication);
        String key = RequestValidator.idempotencyKey(idempotencyKey);
        CreateBookingRequest req = BookingRequests.create(body);
        requireAll(req);
        Caller actor = guard.actingFor(caller, req.tenant());
        Pool pool = validate(req, authentication);
        String fingerprint = key == null
                ? null
                : IdempotencyKeys.fingerprint("POST", request.getPath(), req.canonical(actor.tenant()));
        claim(IdempotencyKeys.scope(actor), key, fingerprint);
        String requestId = UUID.randomUUID().toString();
        String bookingId = UUID.randomUUID().toString();
        BookingCommand command = new BookingCommand.CreateBooking(
                requestId,
                key,
                actor,
                pool.id(),
                bookingId,
                req.namespace(),
                req.quantity(),
                req.start(),
                req.end(),
                req.purpose(),
                Instant.now(),
                fingerprint);
        return gateway.decide(command)
                .thenApply(decision -> DecisionResponses.toResponse(decision, requestId, bookingId, request.getPath()));
    }

    @Operation(
            summary = "List the caller's bookings (admins: all), filtered and paginated",
            description = "limit: "
                    + "1 to gpuaas.booking.http.max-page-size (500), default 50; from/to: RFC 3339, within max-advance + "
                    + "max-duration of now; state: one of the booking states.")
    @Get(produces = MediaType.APPLICATION_JSON)
    public BookingQuery.Page list(
            @Nullable String state,
            @Nullable String pool,
            @Nullable String from,
            @Nullable String to,
            @Nullable String limit,
            @Nullable String cursor,
            Authentication authentication) {
        Caller caller = guard.admit(authentication);
        Instant now = Instant.now();
        BookingQuery.Filter filter = new BookingQuery.Filter(
                RequestValidator.text("state", state, RequestValidator.MAX_ID),
                RequestValidator.text("pool", pool, RequestValidator.MAX_ID),
                validator.queryInstant("from", from, now),
                validator.queryInstant("to", to, now));
        return query.page(caller, filter, limit, RequestValidator.text("cursor", cursor, RequestValidator.MAX_CURSOR));
    }

    @Operation(summary = "One booking; another tenant's booking answers 404")
    @Get(uri = "/{id}", produces = MediaType.APPLICATION_JSON)
    public Booking get(@PathVariable String id, Authentication authentication) {
        Caller caller = guard.admit(authentication);
        return find(id, caller).orElseThrow(() -> notFound(id));
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
        Caller caller = guard.admit(authentication);
        String key = RequestValidator.idempotencyKey(idempotencyKey);
        String fingerprint = key == null ? null : IdempotencyKeys.fingerprint("DELETE", request.getPath(), "");
        Booking booking = acting(id, caller, key, fingerprint);
        Caller actor = new Caller(caller.subject(), booking.tenant(), caller.admin());
        String requestId = UUID.randomUUID().toString();
        BookingCommand command = new BookingCommand.CancelBooking(
                requestId, key, actor, booking.pool(), booking.id(), Instant.now(), fingerprint);
        return gateway.decide(command)
                .thenApply(decision -> DecisionResponses.toResponse(decision, requestId, id, request.getPath()));
    }

    @Operation(
            summary = "Extend or shorten a booking; checked like a new booking",
            description = "start and end "
                    + "as for POST (RFC 3339, aligned, within the policy); a missing start keeps the current one.")
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
        BookingRequests.require(req.end(), "end");
        Booking booking = find(id, caller).orElse(null);
        Instant start = req.start() != null ? req.start() : booking != null ? booking.start() : null;
        if (start != null && !start.isBefore(req.end())) {
            throw ProblemException.badRequest("INVALID_WINDOW", "end", "start must be before end");
        }
        if (booking != null) {
            // The decider's own window rules, so what it would refuse never becomes a 202 followed by a rejection.
            policy.checkMove(booking.start(), booking.quantity(), start, req.end(), Instant.now())
                    .ifPresent(v -> {
                        throw new ProblemException(
                                v.rule().httpStatus(), v.rule().name(), v.rule().field(), v.message());
                    });
        }
        String fingerprint =
                key == null ? null : IdempotencyKeys.fingerprint("PATCH", request.getPath(), req.canonical());
        booking = acting(id, caller, key, fingerprint);
        Caller actor = new Caller(caller.subject(), booking.tenant(), caller.admin());
        String requestId = UUID.randomUUID().toString();
        BookingCommand command = new BookingCommand.ChangeBooking(
                requestId, key, actor, booking.pool(), booking.id(), start, req.end(), Instant.now(), fingerprint);
        return gateway.decide(command)
                .thenApply(decision -> DecisionResponses.toResponse(decision, requestId, id, request.getPath()));
    }

    /** 422 when the key was first used with another request: the answer to that one is not this one's. */
    private void claim(String scope, String key, String fingerprint) {
        if (!keys.claim(scope, key, fingerprint)) {
            throw new ProblemException(
                    422,
                    Rejection.IDEMPOTENCY_MISMATCH.name(),
                    "Idempotency-Key",
                    "this Idempotency-Key was already used with a different request (another method, path or "
                            + "body); use a new key for a new request");
        }
    }

    private static void requireAll(CreateBookingRequest req) {
        BookingRequests.require(req.pool(), "pool");
        BookingRequests.require(req.quantity(), "quantity");
        BookingRequests.require(req.start(), "start");
        BookingRequests.require(req.end(), "end");
        BookingRequests.require(req.namespace(), "namespace");
    }

    private Pool validate(CreateBookingRequest req, Authentication authentication) {
        Pool pool = pools.find(req.pool())
                .orElseThrow(() -> new ProblemException(
                        404, "UNKNOWN_POOL", "pool", "no pool " + req.pool() + "; see GET /api/v1/pools"));
        if (!guard.mayUse(authentication, req.namespace())) {
            throw new ProblemException(
                    403,
                    "NAMESPACE_NOT_OWNED",
                    "namespace",
                    "the caller's tenant does not own namespace " + req.namespace());
        }
        policy.check(req.start(), req.end(), req.quantity(), pool.capacity(), Instant.now())
                .ifPresent(v -> {
                    throw new ProblemException(
                            v.rule().httpStatus(), v.rule().name(), v.rule().field(), v.message());
                });
        return pool;
    }

    /**
     * The booking a cancel or change acts on, with the idempotency key bound in the scope of the booking's tenant
     * (an admin acts for the owner). A 404 binds the key too, in the caller's own scope: the key was spent on it.
     */
    private Booking acting(String id, Caller caller, String key, String fingerprint) {
        Optional<Booking> booking = find(id, caller);
        if (booking.isEmpty()) {
            claim(IdempotencyKeys.scope(caller), key, fingerprint);
            throw notFound(id);
        }
        claim(
                IdempotencyKeys.scope(new Caller(caller.subject(), booking.get().tenant(), caller.admin())),
                key,
                fingerprint);
        return booking.get();
    }

    private Optional<Booking> find(String id, Caller caller) {
        return view.find(id).filter(b -> caller.admin() || b.tenant().equals(caller.tenant()));
    }

    private static ProblemException notFound(String id) {
        return new ProblemException(
                404,
                "NOT_FOUND",
                "id",
                id.length() <= RequestValidator.MAX_ID ? "no booking " + id : "no booking with that id");
    }
}
