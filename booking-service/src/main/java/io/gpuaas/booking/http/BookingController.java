package io.gpuaas.booking.http;

import io.gpuaas.booking.http.BookingRequests.CreateBookingRequest;
import io.gpuaas.booking.kafka.IdempotencyKeys;
import io.gpuaas.booking.model.BookingDecider;
import io.gpuaas.booking.model.BookingPolicy;
import io.gpuaas.booking.model.PoolUnits;
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
import io.micronaut.http.annotation.Get;
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
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * Create and read bookings ({@link BookingChangeController} cancels, moves and ends them). Writes go through the single
 * writer of the pool and wait for it.
 */
@Controller("/api/v1/bookings")
@Secured(SecurityRule.IS_AUTHENTICATED)
public class BookingController {

    private final PoolCatalog pools;
    private final BookingPolicy policy;
    private final BookingDecider decider;
    private final DecisionGateway gateway;
    private final CallerGuard guard;
    private final BookingQuery query;
    private final BookingAccess access;
    private final RequestValidator validator;

    public BookingController(
            PoolCatalog pools,
            BookingDecider decider,
            DecisionGateway gateway,
            CallerGuard guard,
            BookingQuery query,
            BookingAccess access) {
        this.pools = pools;
        this.policy = decider.policy();
        this.decider = decider;
        this.gateway = gateway;
        this.guard = guard;
        this.query = query;
        this.access = access;
        this.validator = new RequestValidator(policy);
    }

    @Operation(
            summary = "Book units of a pool for a window, or from now",
            description = "201 with the CONFIRMED booking, or the ACTIVE one when booked now; 409 with the conflicting "
                    + "intervals and the earliest start that fits; 202 with Location when the decision takes longer than "
                    + "the bounded wait. `start` absent or \"now\": the booking starts at the instant it is decided and is "
                    + "ACTIVE at once. `end` (aligned) or `duration` (ISO 8601, e.g. PT2H; the end is start + duration "
                    + "rounded up to the alignment), not both. `profile`: on a flexible pool one of its bookable MIG "
                    + "profiles (GET /api/v1/pools), absent for whole GPUs; on a static pool absent or its own profile; "
                    + "anything else 422 INVALID_PROFILE. On a flexible pool the booking carries `placement` (node, GPU, "
                    + "profile, start slice per unit). Admins must name the tenant they book for (`tenant`, else "
                    + "422); a tenant may omit it or name itself (another tenant: 403). Every caller, admins "
                    + "included, books only a namespace of its own `namespaces` claim (else 403 NAMESPACE_NOT_OWNED). "
                    + "Idempotency-Key (at most 128 visible ASCII characters) is bound per tenant to the whole "
                    + "request (method, path, body): the same request gets the same answer (a book-now the same "
                    + "booking, not a new now), any other request with that key 422 IDEMPOTENCY_MISMATCH. "
                    + "`waitlist: {latestStart}`: instead of a 409 CAPACITY, book at the first start up to latestStart "
                    + "that fits (201), else wait: 202 with the waitlist entry (GET /api/v1/waitlist/{id}); it is "
                    + "booked under the same id once capacity on the pool frees and it fits (a WaitlistBooked notice), "
                    + "and expires at latestStart (WaitlistExpired). latestStart before the start or beyond "
                    + "max-advance: 400 INVALID_WAITLIST.")
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
        access.claim(IdempotencyKeys.scope(actor), key, fingerprint);
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
                fingerprint,
                req.duration(),
                req.profile(),
                req.latestStart());
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
        return access.find(id, caller).orElseThrow(() -> BookingAccess.notFound(id));
    }

    private static void requireAll(CreateBookingRequest req) {
        BookingRequests.require(req.pool(), "pool");
        BookingRequests.require(req.quantity(), "quantity");
        BookingRequests.requireEndOrDuration(req.end(), req.duration());
        BookingRequests.require(req.namespace(), "namespace");
    }

    private Pool validate(CreateBookingRequest req, Authentication authentication) {
        Pool pool = pools.find(req.pool())
                .orElseThrow(() -> new ProblemException(
                        404, "UNKNOWN_POOL", "pool", "no pool " + req.pool() + "; see GET /api/v1/pools"));
        if (!guard.mayBookFor(authentication, req.namespace())) {
            throw new ProblemException(
                    403,
                    "NAMESPACE_NOT_OWNED",
                    "namespace",
                    "namespace " + req.namespace() + " is not in the caller's namespaces claim");
        }
        // The decider's own rules on this clock, so what it would refuse never becomes a 202 and a late rejection.
        Instant now = Instant.now();
        Optional<BookingPolicy.Violation> broken = PoolUnits.profileProblem(pool, req.profile());
        if (broken.isEmpty() && req.duration() != null) {
            broken = policy.checkDuration(req.duration());
        }
        if (broken.isEmpty()) {
            Instant start = req.start() != null ? req.start() : now;
            Instant end = req.end() != null ? req.end() : policy.endAfter(start, req.duration());
            int units = PoolUnits.capacity(pool, req.profile());
            broken = req.start() == null
                    ? policy.checkNow(now, end, req.quantity(), units)
                    : policy.check(start, end, req.quantity(), units, now);
            if (broken.isEmpty() && req.latestStart() != null) {
                broken = decider.waitlistProblem(req.latestStart(), start, now)
                        .map(m -> new BookingPolicy.Violation(Rejection.INVALID_WAITLIST, m));
            }
        }
        broken.ifPresent(BookingController::refuse);
        return pool;
    }

    /** A broken policy rule as the decider would answer it. */
    static void refuse(BookingPolicy.Violation v) {
        throw new ProblemException(
                v.rule().httpStatus(), v.rule().name(), v.rule().field(), v.message());
    }
}
