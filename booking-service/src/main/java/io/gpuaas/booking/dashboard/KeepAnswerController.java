package io.gpuaas.booking.dashboard;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import io.gpuaas.booking.http.BookingAccess;
import io.gpuaas.booking.http.CallerGuard;
import io.gpuaas.booking.http.ProblemException;
import io.gpuaas.events.Json;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.Caller;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.events.pool.PoolKeep;
import io.gpuaas.kit.config.ForwardedIdentitySettings;
import io.gpuaas.kit.http.KubernetesNames;
import io.gpuaas.kit.http.Problem;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.authentication.Authentication;
import io.micronaut.security.rules.SecurityRule;
import io.swagger.v3.oas.annotations.Operation;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The dashboard's "Keep 4 h / 8 h / 24 h" beside a reclaim warning: the booking is found for the caller first (another
 * tenant's booking is a 404), then the answer is forwarded to idle-reclaimer for the workload in the booking's
 * namespace with the caller's own token, where the tenant and the bounds are checked again.
 */
@Controller("/api/v1/bookings")
@Secured(SecurityRule.IS_AUTHENTICATED)
public class KeepAnswerController {

    private final CallerGuard guard;
    private final BookingAccess access;
    private final KeepForwarder keeps;
    private final ForwardedIdentitySettings forwarded;
    private final BookingActivities activities;
    private final PoolCatalog pools;

    public KeepAnswerController(
            CallerGuard guard,
            BookingAccess access,
            KeepForwarder keeps,
            ForwardedIdentitySettings forwarded,
            BookingActivities activities,
            PoolCatalog pools) {
        this.guard = guard;
        this.access = access;
        this.keeps = keeps;
        this.forwarded = forwarded;
        this.activities = activities;
        this.pools = pools;
    }

    @Operation(
            summary = "Answer a reclaim warning with \"keep it\": body {\"hours\": n}; forwarded to idle-reclaimer "
                    + "with the caller's own token for the workload in the booking's namespace. 202 with the keep's "
                    + "projected end; 422 beyond the hours of one answer (the booking's pool's keep.maxHoursPerAnswer, "
                    + "or idle-reclaimer's), 409 beyond the booking's hours of the UTC day (its pool's "
                    + "keep.maxHoursPerDay, all its workloads together: bound per-booking-day) or the workload's "
                    + "(idle-reclaimer's: per-day) (problem+json with bound, maxHours, hoursLeft); 404 for an unknown "
                    + "or another tenant's "
                    + "booking or workload; kind RayCluster or InferenceService")
    @Post(uri = "/{id}/workloads/{kind}/{name}/keep", consumes = MediaType.ALL, produces = MediaType.APPLICATION_JSON)
    @ExecuteOn(TaskExecutors.BLOCKING)
    public HttpResponse<String> keep(
            @PathVariable String id,
            @PathVariable String kind,
            @PathVariable String name,
            @Nullable @Body String body,
            HttpRequest<?> request,
            Authentication authentication) {
        Caller caller = guard.admit(authentication);
        Booking booking = access.find(id, caller).orElseThrow(() -> BookingAccess.notFound(id));
        Optional<Problem> bad = Stream.of(
                        KubernetesNames.label("kind", kind.toLowerCase(Locale.ROOT)),
                        KubernetesNames.subdomain("name", name))
                .flatMap(Optional::stream)
                .findFirst();
        if (bad.isPresent()) {
            throw ProblemException.badRequest(
                    bad.get().rule(), bad.get().field(), bad.get().detail());
        }
        int hours = hours(body)
                .orElseThrow(() -> ProblemException.badRequest(
                        "KEEP_HOURS", "hours", "the body must be {\"hours\": n} with n a whole number of at least 1"));
        PoolKeep policy = pools.find(booking.pool()).map(Pool::keepPolicy).orElse(PoolKeep.DEFAULT);
        KeepAllowance.check(booking, policy, activities.keptIn(booking), hours, Instant.now())
                .ifPresent(beyond -> {
                    throw beyond(beyond, name);
                });
        String answer = keeps.keep(booking.namespace(), kind, name, hours, CallerCredential.of(request, forwarded));
        return HttpResponse.<String>status(HttpStatus.ACCEPTED)
                .body(answer)
                .contentType(MediaType.APPLICATION_JSON_TYPE);
    }

    /** The booking's own bound, in the problem idle-reclaimer's refusals are told with (KeepForwarder). */
    private static ProblemException beyond(KeepAllowance.Beyond beyond, String workload) {
        boolean perAnswer = "per-answer".equals(beyond.bound());
        return new ProblemException(
                        perAnswer ? 422 : 409,
                        "KEEP_BOUND",
                        "hours",
                        workload
                                + (perAnswer
                                        ? " cannot be kept that long in one answer on this pool"
                                        : " cannot be kept longer: the booking's keep hours of the UTC day are used"))
                .with("bound", beyond.bound())
                .with("maxHours", beyond.maxHours())
                .with("hoursLeft", beyond.hoursLeft());
    }

    private static Optional<Integer> hours(@Nullable String body) {
        if (body == null || body.isBlank()) {
            return Optional.empty();
        }
        try {
            JsonNode hours = Json.mapper().readTree(body).path("hours");
            if (!hours.isIntegralNumber() || !hours.canConvertToInt() || hours.intValue() < 1) {
                return Optional.empty();
            }
            return Optional.of(hours.intValue());
        } catch (JacksonException e) {
            return Optional.empty();
        }
    }
}
