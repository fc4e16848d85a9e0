package io.gpuaas.booking.http;

import io.gpuaas.booking.http.BookingRequests.ChangeBookingRequest;
import io.gpuaas.booking.http.BookingRequests.CreateBookingRequest;
import io.gpuaas.booking.kafka.BookingView;
import io.gpuaas.booking.model.BookingDecider;
import io.gpuaas.booking.model.BookingPolicy;
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

    public BookingController(PoolCatalog pools, BookingDecider decider, BookingView view, DecisionGateway gateway,
                             CallerGuard guard, BookingQuery query) {
        this.pools = pools;
        this.policy = decider.policy();
        this.view = view;
        this.gateway = gateway;
        this.guard = guard;
        this.query = query;
    }

    @Operation(summary = "Book units of a pool for a window", description = "201 with the CONFIRMED booking, 409 "
            + "with the conflicting intervals and the earliest start that fits, 202 with Location when the decision "
            + "takes longer than the bounded wait. Idempotency-Key: same key and body, same answer; other body, 422.")
    @RequestBody(content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = CreateBookingRequest.class)))
    @Post(consumes = MediaType.ALL, produces = MediaType.APPLICATION_JSON)
    public CompletableFuture<MutableHttpResponse<?>> create(HttpRequest<?> request, @Nullable @Body String body,
            @Nullable @Header("Idempotency-Key") String idempotencyKey, Authentication authentication) {
        Caller caller = guard.admit(authentication);
        CreateBookingRequest req = BookingRequests.read(body, CreateBookingRequest.class);
        Pool pool = validate(req, authentication);
        String requestId = UUID.randomUUID().toString();
        String bookingId = UUID.randomUUID().toString();
        BookingCommand command = new BookingCommand.CreateBooking(requestId, blankToNull(idempotencyKey), caller,
                pool.id(), bookingId, req.namespace(), req.quantity(), req.start(), req.end(), req.purpose(), Instant.now());
        return gateway.decide(command)
                .thenApply(decision -> DecisionResponses.toResponse(decision, requestId, bookingId, request.getPath()));
    }

    @Operation(summary = "List the caller's bookings (admins: all), filtered and paginated")
    @Get(produces = MediaType.APPLICATION_JSON)
    public BookingQuery.Page list(@Nullable String state, @Nullable String pool, @Nullable Instant from,
                                  @Nullable Instant to, @Nullable Integer limit, @Nullable String cursor,
                                  Authentication authentication) {
        Caller caller = guard.admit(authentication);
        return query.page(caller, new BookingQuery.Filter(state, pool, from, to), limit, cursor);
    }

    @Operation(summary = "One booking; another tenant's booking answers 404")
    @Get(uri = "/{id}", produces = MediaType.APPLICATION_JSON)
    public Booking get(@PathVariable String id, Authentication authentication) {
        return visible(id, guard.admit(authentication));
    }

    @Operation(summary = "Cancel a booking; its units are free again")
    @Delete(uri = "/{id}", produces = MediaType.APPLICATION_JSON)
    public CompletableFuture<MutableHttpResponse<?>> cancel(HttpRequest<?> request, @PathVariable String id,
            @Nullable @Header("Idempotency-Key") String idempotencyKey, Authentication authentication) {
        Caller caller = guard.admit(authentication);
        Booking booking = visible(id, caller);
        String requestId = UUID.randomUUID().toString();
        BookingCommand command = new BookingCommand.CancelBooking(requestId, blankToNull(idempotencyKey), caller,
                booking.pool(), booking.id(), Instant.now());
        return gateway.decide(command)
                .thenApply(decision -> DecisionResponses.toResponse(decision, requestId, id, request.getPath()));
    }

    @Operation(summary = "Extend or shorten a booking; checked like a new booking")
    @RequestBody(content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = ChangeBookingRequest.class)))
    @Patch(uri = "/{id}", consumes = MediaType.ALL, produces = MediaType.APPLICATION_JSON)
    public CompletableFuture<MutableHttpResponse<?>> change(HttpRequest<?> request, @PathVariable String id,
            @Nullable @Body String body, @Nullable @Header("Idempotency-Key") String idempotencyKey,
            Authentication authentication) {
        Caller caller = guard.admit(authentication);
        Booking booking = visible(id, caller);
        ChangeBookingRequest req = BookingRequests.read(body, ChangeBookingRequest.class);
        BookingRequests.require(req.end(), "end");
        Instant start = req.start() == null ? booking.start() : req.start();
        if (!start.isBefore(req.end())) {
            throw ProblemException.badRequest("INVALID_WINDOW", "end", "start must be before end");
        }
        String requestId = UUID.randomUUID().toString();
        BookingCommand command = new BookingCommand.ChangeBooking(requestId, blankToNull(idempotencyKey), caller,
                booking.pool(), booking.id(), start, req.end(), Instant.now());
        return gateway.decide(command)
                .thenApply(decision -> DecisionResponses.toResponse(decision, requestId, id, request.getPath()));
    }

    private Pool validate(CreateBookingRequest req, Authentication authentication) {
        BookingRequests.require(req.pool(), "pool");
        BookingRequests.require(req.quantity(), "quantity");
        BookingRequests.require(req.start(), "start");
        BookingRequests.require(req.end(), "end");
        BookingRequests.require(req.namespace(), "namespace");
        Pool pool = pools.find(req.pool()).orElseThrow(() -> new ProblemException(404, "UNKNOWN_POOL", "pool",
                "no pool " + req.pool() + "; see GET /api/v1/pools"));
        if (!guard.mayUse(authentication, req.namespace())) {
            throw new ProblemException(403, "NAMESPACE_NOT_OWNED", "namespace",
                    "the caller's tenant does not own namespace " + req.namespace());
        }
        policy.check(req.start(), req.end(), req.quantity(), pool.capacity(), Instant.now()).ifPresent(v -> {
            throw new ProblemException(v.rule().httpStatus(), v.rule().name(), v.rule().field(), v.message());
        });
        return pool;
    }

    private Booking visible(String id, Caller caller) {
        Optional<Booking> booking = view.find(id).filter(b -> caller.admin() || b.tenant().equals(caller.tenant()));
        return booking.orElseThrow(() -> new ProblemException(404, "NOT_FOUND", "id", "no booking " + id));
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }

}
