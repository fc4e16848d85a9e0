package io.gpuaas.booking.http;

import io.gpuaas.booking.http.SeriesRequests.CreateSeriesRequest;
import io.gpuaas.booking.kafka.BookingView;
import io.gpuaas.booking.kafka.IdempotencyKeys;
import io.gpuaas.booking.model.BookingDecider;
import io.gpuaas.booking.model.BookingPolicy;
import io.gpuaas.booking.model.PoolUnits;
import io.gpuaas.booking.model.Recurrence;
import io.gpuaas.booking.model.RecurrenceRule;
import io.gpuaas.booking.model.Rejection;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingCommand;
import io.gpuaas.events.booking.BookingEvent;
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
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.authentication.Authentication;
import io.micronaut.security.rules.SecurityRule;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.parameters.RequestBody;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * Recurring series: create one (each occurrence decided as a booking of its own, in one decision of the pool's single
 * writer), read it, cancel its rest. An occurrence is a booking: read, change, end or cancel it alone under
 * {@code /api/v1/bookings/{id}}.
 */
@Controller("/api/v1/series")
@Secured(SecurityRule.IS_AUTHENTICATED)
public class SeriesController {

    private final PoolCatalog pools;
    private final BookingPolicy policy;
    private final DecisionGateway gateway;
    private final CallerGuard guard;
    private final BookingAccess access;
    private final BookingView view;

    public SeriesController(
            PoolCatalog pools,
            BookingDecider decider,
            DecisionGateway gateway,
            CallerGuard guard,
            BookingAccess access,
            BookingView view) {
        this.pools = pools;
        this.policy = decider.policy();
        this.gateway = gateway;
        this.guard = guard;
        this.access = access;
        this.view = view;
    }

    @Operation(
            summary = "Book a recurring series: one booking per occurrence",
            description = "The body is a booking request (as POST /api/v1/bookings; `start` required, not \"now\") for"
                    + " the first occurrence, plus `recurrence` {`rule`, `timeZone`} and `mode`. `rule` is an RFC 5545"
                    + " RRULE value: FREQ=DAILY or WEEKLY, optional INTERVAL (1..52), BYDAY (weekly only; absent: the"
                    + " start's weekday), and exactly one of COUNT and UNTIL (YYYYMMDD or YYYYMMDDTHHMMSSZ), at most 100"
                    + " occurrences, the last one within the booking horizon (max-advance), occurrences not"
                    + " overlapping. Occurrences keep the first one's wall-clock time and length in `timeZone` (IANA,"
                    + " default UTC), across daylight-saving changes. Each occurrence is decided as a booking of its"
                    + " own: 201 with the booked ones (`confirmed`, each carrying `seriesId`) and the refused ones"
                    + " with their reason (`refused`). `mode` \"all-or-none\": nothing is booked when any occurrence is"
                    + " refused (409 SERIES_ALL_OR_NONE with `refused`); \"each\" (default) with none booked: 409"
                    + " SERIES_REFUSED. A bad rule: 422 INVALID_RECURRENCE. 202 with Location when the decision takes"
                    + " longer than the bounded wait. Idempotency-Key as for POST /api/v1/bookings.")
    @RequestBody(
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON,
                            schema = @Schema(implementation = CreateSeriesRequest.class)))
    @Post(consumes = MediaType.ALL, produces = MediaType.APPLICATION_JSON)
    public CompletableFuture<MutableHttpResponse<?>> create(
            HttpRequest<?> request,
            @Nullable @Body String body,
            @Nullable @Header("Idempotency-Key") String idempotencyKey,
            Authentication authentication) {
        Caller caller = guard.admit(authentication);
        String key = RequestValidator.idempotencyKey(idempotencyKey);
        CreateSeriesRequest req = SeriesRequests.create(body);
        requireAll(req);
        Caller actor = guard.actingFor(caller, req.tenant());
        Pool pool = validate(req, authentication);
        String fingerprint = key == null
                ? null
                : IdempotencyKeys.fingerprint("POST", request.getPath(), req.canonical(actor.tenant()));
        access.claim(IdempotencyKeys.scope(actor), key, fingerprint);
        String requestId = UUID.randomUUID().toString();
        String seriesId = UUID.randomUUID().toString();
        BookingCommand command = new BookingCommand.CreateSeries(
                requestId,
                key,
                actor,
                pool.id(),
                seriesId,
                req.namespace(),
                req.quantity(),
                req.start(),
                req.end(),
                req.duration(),
                req.purpose(),
                req.profile(),
                req.recurrence().rule(),
                req.recurrence().timeZone(),
                req.seriesMode(),
                Instant.now(),
                fingerprint);
        return gateway.decide(command, SeriesController::answersSeries)
                .thenApply(decision -> SeriesResponses.toResponse(decision, requestId, seriesId, request.getPath()));
    }

    @Operation(
            summary = "A series: its booked occurrences in their current states; another tenant's series answers 404")
    @Get(uri = "/{id}", produces = MediaType.APPLICATION_JSON)
    public SeriesResponses.SeriesState get(@PathVariable String id, Authentication authentication) {
        Caller caller = guard.admit(authentication);
        List<Booking> occurrences = occurrences(id, caller);
        Booking first = occurrences.getFirst();
        return new SeriesResponses.SeriesState(id, first.tenant(), first.pool(), occurrences);
    }

    @Operation(
            summary = "Cancel the rest of a series",
            description = "Cancels, in one decision, every occurrence still to start (CONFIRMED) whose start is at or"
                    + " after `from` (RFC 3339; absent: the instant of the decision). A running occurrence is left as"
                    + " it is (end it with POST /api/v1/bookings/{id}/end). 200 with the cancelled ids (maybe none);"
                    + " 404 for an unknown series or another tenant's. Idempotency-Key as for POST.")
    @Delete(uri = "/{id}", produces = MediaType.APPLICATION_JSON)
    public CompletableFuture<MutableHttpResponse<?>> cancelRest(
            HttpRequest<?> request,
            @PathVariable String id,
            @Nullable @QueryValue String from,
            @Nullable @Header("Idempotency-Key") String idempotencyKey,
            Authentication authentication) {
        Caller caller = guard.admit(authentication);
        String key = RequestValidator.idempotencyKey(idempotencyKey);
        Instant fromInstant = from == null ? null : Rfc3339.parse("INVALID_FIELD", "from", from);
        String fingerprint = key == null
                ? null
                : IdempotencyKeys.fingerprint("DELETE", request.getPath(), String.valueOf(fromInstant));
        List<Booking> occurrences;
        try {
            occurrences = occurrences(id, caller);
        } catch (ProblemException notFound) {
            access.claim(IdempotencyKeys.scope(caller), key, fingerprint);
            throw notFound;
        }
        Caller actor = BookingAccess.actorFor(caller, occurrences.getFirst());
        access.claim(IdempotencyKeys.scope(actor), key, fingerprint);
        String requestId = UUID.randomUUID().toString();
        BookingCommand command = new BookingCommand.CancelSeries(
                requestId, key, actor, occurrences.getFirst().pool(), id, fromInstant, Instant.now(), fingerprint);
        return gateway.decide(command, SeriesController::answersSeries)
                .thenApply(decision -> SeriesResponses.toResponse(decision, requestId, id, request.getPath()));
    }

    /** A series request is answered by its summary or by a rejection of the series as a whole. */
    private static boolean answersSeries(BookingEvent event) {
        return switch (event) {
            case BookingEvent.SeriesDecided e -> true;
            case BookingEvent.SeriesCancelled e -> true;
            case BookingEvent.BookingRejected e -> true;
            default -> false;
        };
    }

    /** The series' occurrences the caller may see, in order of start; 404 when there is none. */
    private List<Booking> occurrences(String id, Caller caller) {
        String seriesId = RequestValidator.text("id", id, RequestValidator.MAX_ID);
        List<Booking> found = view.all().stream()
                .filter(b -> seriesId.equals(b.seriesId()))
                .filter(b -> caller.admin() || b.tenant().equals(caller.tenant()))
                .sorted(Comparator.comparing(Booking::start).thenComparing(Booking::id))
                .toList();
        if (found.isEmpty()) {
            throw new ProblemException(404, Rejection.NOT_FOUND.name(), "id", "no series " + seriesId);
        }
        return found;
    }

    private static void requireAll(CreateSeriesRequest req) {
        BookingRequests.require(req.pool(), "pool");
        BookingRequests.require(req.quantity(), "quantity");
        BookingRequests.require(req.start(), "start");
        BookingRequests.requireEndOrDuration(req.end(), req.duration());
        BookingRequests.require(req.namespace(), "namespace");
    }

    /**
     * The rules the decider would refuse the series as a whole for, on this clock: the first occurrence's policy, the
     * rule and its horizon. Capacity, and the policy of later occurrences, are the decider's, per occurrence.
     */
    private Pool validate(CreateSeriesRequest req, Authentication authentication) {
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
        Instant now = Instant.now();
        Optional<BookingPolicy.Violation> broken = PoolUnits.profileProblem(pool, req.profile());
        if (broken.isEmpty() && req.duration() != null) {
            broken = policy.checkDuration(req.duration());
        }
        Instant end = req.end() != null ? req.end() : policy.endAfter(req.start(), req.duration());
        if (broken.isEmpty()) {
            broken = policy.check(req.start(), end, req.quantity(), PoolUnits.capacity(pool, req.profile()), now);
        }
        broken.ifPresent(BookingController::refuse);
        List<Recurrence.Occurrence> occurrences;
        try {
            occurrences = Recurrence.expand(
                    RecurrenceRule.parse(req.recurrence().rule()),
                    Recurrence.zone(req.recurrence().timeZone()),
                    req.start(),
                    end);
        } catch (RecurrenceRule.InvalidRecurrence e) {
            throw new ProblemException(422, Rejection.INVALID_RECURRENCE.name(), "recurrence", e.getMessage());
        }
        Instant last = occurrences.getLast().end();
        if (last.isAfter(now.plus(policy.maxAdvance()))) {
            throw new ProblemException(
                    422,
                    Rejection.POLICY_MAX_ADVANCE.name(),
                    "recurrence",
                    "the series' last occurrence ends " + last + ", beyond the booking horizon of "
                            + policy.maxAdvance() + " from now; lower COUNT or UNTIL");
        }
        return pool;
    }
}
