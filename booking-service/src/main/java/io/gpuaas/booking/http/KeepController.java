package io.gpuaas.booking.http;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import io.gpuaas.booking.kafka.BookingView;
import io.gpuaas.booking.model.KeepDecisions;
import io.gpuaas.events.Json;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingCommand.KeepWorkload;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.booking.Caller;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.kit.http.KubernetesNames;
import io.gpuaas.kit.http.Problem;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.authentication.Authentication;
import io.micronaut.security.rules.SecurityRule;
import io.swagger.v3.oas.annotations.Operation;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Comparator;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

/**
 * "Keep it" answers to a reclaim warning, charged to one booking and decided by its pool's single writer
 * ({@link KeepDecisions}): the dashboard's path names the booking, the notice's {@code keep} link names the workload
 * and the booking active in its namespace is charged. Either way the caller waits for the decision, as for a change.
 */
@Controller("/api/v1")
@Secured(SecurityRule.IS_AUTHENTICATED)
public class KeepController {

    private final DecisionGateway gateway;
    private final CallerGuard guard;
    private final BookingAccess access;
    private final BookingView view;

    public KeepController(DecisionGateway gateway, CallerGuard guard, BookingAccess access, BookingView view) {
        this.gateway = gateway;
        this.guard = guard;
        this.access = access;
        this.view = view;
    }

    /** A granted keep: the booking charged, and its hours of the UTC day with this answer. */
    public record KeepAnswer(
            String bookingId,
            WorkloadRef workload,
            int hours,
            LocalDate day,
            int hoursToday,
            int hoursLeft,
            Instant keptFrom) {}

    @Operation(
            summary = "Answer a reclaim warning with \"keep it\" for a workload of a booking: body {\"hours\": n}",
            description = "Decided by the booking's pool's single writer: 202 with the hours kept today and left; 422 "
                    + "KEEP_BOUND beyond the hours of one answer (the pool's keep.maxHoursPerAnswer), 409 KEEP_BOUND "
                    + "beyond what is left of the booking's hours of the UTC day (keep.maxHoursPerDay, all its "
                    + "workloads together), both with bound, maxHours, hoursLeft; 409 INVALID_STATE when the booking is "
                    + "not ACTIVE; 404 for an unknown or another tenant's booking; kind RayCluster or InferenceService")
    @Post(
            uri = "/bookings/{id}/workloads/{kind}/{name}/keep",
            consumes = MediaType.ALL,
            produces = MediaType.APPLICATION_JSON)
    public CompletableFuture<MutableHttpResponse<?>> keepForBooking(
            @PathVariable String id,
            @PathVariable String kind,
            @PathVariable String name,
            @Nullable @Body String body,
            HttpRequest<?> request,
            Authentication authentication) {
        Caller caller = guard.admit(authentication);
        Booking booking = access.find(id, caller).orElseThrow(() -> BookingAccess.notFound(id));
        WorkloadRef workload = workload(booking.namespace(), kind, name);
        return decide(request, caller, booking, workload, hours(body));
    }

    @Operation(
            summary = "Answer a reclaim warning with \"keep it\": the ReclaimPending notice's keep link (webhooks too)",
            description =
                    "Body {\"hours\": n}. Charged to the caller's booking ACTIVE in the namespace now (with two, "
                            + "the one that started first) and decided as the booking's keep path is, with its answers; 404 "
                            + "WORKLOAD_EXISTS when the caller has no such booking (another tenant's namespace answers the same)")
    @Post(
            uri = "/workloads/{namespace}/{kind}/{name}/keep",
            consumes = MediaType.ALL,
            produces = MediaType.APPLICATION_JSON)
    public CompletableFuture<MutableHttpResponse<?>> keepForWorkload(
            @PathVariable String namespace,
            @PathVariable String kind,
            @PathVariable String name,
            @Nullable @Body String body,
            HttpRequest<?> request,
            Authentication authentication) {
        Caller caller = guard.admit(authentication);
        KubernetesNames.label("namespace", namespace).ifPresent(KeepController::refuse);
        WorkloadRef workload = workload(namespace, kind, name);
        int hours = hours(body);
        Booking booking = activeIn(namespace, caller, Instant.now())
                .orElseThrow(() -> new ProblemException(404, "WORKLOAD_EXISTS", "name", workload.key() + " not found"));
        return decide(request, caller, booking, workload, hours);
    }

    /**
     * The booking a keep of a workload in {@code namespace} is charged to: the caller's (an admin's: anyone's) booking
     * ACTIVE there at {@code now}; with several, the one that started first (then the smaller id), so one answer is
     * charged to exactly one booking, the same on every replica.
     */
    Optional<Booking> activeIn(String namespace, Caller caller, Instant now) {
        return view.all().stream()
                .filter(b -> b.namespace().equals(namespace))
                .filter(b -> caller.admin() || b.tenant().equals(caller.tenant()))
                .filter(b -> b.state() == BookingState.ACTIVE && b.end().isAfter(now))
                .min(Comparator.comparing(Booking::start).thenComparing(Booking::id));
    }

    private CompletableFuture<MutableHttpResponse<?>> decide(
            HttpRequest<?> request, Caller caller, Booking booking, WorkloadRef workload, int hours) {
        KeepWorkload command = new KeepWorkload(
                UUID.randomUUID().toString(),
                null,
                BookingAccess.actorFor(caller, booking),
                booking.pool(),
                booking.id(),
                workload,
                hours,
                Instant.now(),
                null);
        return gateway.decide(command)
                .thenApply(decision ->
                        DecisionResponses.toResponse(decision, command.requestId(), booking.id(), request.getPath()));
    }

    /** The HTTP answer to a decided keep: 202 when granted, the bound's problem+json when refused. */
    static MutableHttpResponse<?> answer(BookingEvent.WorkloadKeepDecided e, String path) {
        if (e.granted()) {
            return HttpResponse.accepted()
                    .body(new KeepAnswer(
                            e.bookingId(), e.workload(), e.hours(), e.day(), e.hoursToday(), e.hoursLeft(), e.time()));
        }
        boolean perAnswer = KeepDecisions.PER_ANSWER.equals(e.bound());
        return new ProblemException(
                        perAnswer ? 422 : 409,
                        "KEEP_BOUND",
                        "hours",
                        e.workload().name()
                                + (perAnswer
                                        ? " cannot be kept that long in one answer on this pool"
                                        : " cannot be kept longer: the booking's keep hours of the UTC day are used"))
                .with("bound", e.bound())
                .with("maxHours", e.maxHours())
                .with("hoursLeft", e.hoursLeft())
                .with("requestId", e.requestId())
                .response(path);
    }

    private static WorkloadRef workload(String namespace, String kind, String name) {
        KubernetesNames.subdomain("name", name).ifPresent(KeepController::refuse);
        String canonical = WorkloadRef.canonicalKind(kind)
                .orElseThrow(() -> ProblemException.badRequest(
                        "RECLAIMABLE_KIND", "kind", "kind must be RayCluster or InferenceService"));
        return new WorkloadRef(namespace, canonical, name);
    }

    private static void refuse(Problem problem) {
        throw ProblemException.badRequest(problem);
    }

    private static int hours(@Nullable String body) {
        return Optional.ofNullable(body)
                .filter(b -> !b.isBlank())
                .flatMap(KeepController::readHours)
                .orElseThrow(() -> ProblemException.badRequest(
                        "KEEP_HOURS", "hours", "the body must be {\"hours\": n} with n a whole number of at least 1"));
    }

    private static Optional<Integer> readHours(String body) {
        try {
            JsonNode hours = Json.mapper().readTree(body).path("hours");
            return Stream.of(hours)
                    .filter(h -> h.isIntegralNumber() && h.canConvertToInt() && h.intValue() >= 1)
                    .map(JsonNode::intValue)
                    .findFirst();
        } catch (JacksonException e) {
            return Optional.empty();
        }
    }
}
