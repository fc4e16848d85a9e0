package io.gpuaas.booking.dashboard;

import io.gpuaas.booking.http.BookingAccess;
import io.gpuaas.booking.http.CallerGuard;
import io.gpuaas.booking.http.ProblemException;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.Caller;
import io.gpuaas.kit.config.ForwardedIdentitySettings;
import io.gpuaas.kit.http.KubernetesNames;
import io.gpuaas.kit.http.Problem;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.authentication.Authentication;
import io.micronaut.security.rules.SecurityRule;
import io.swagger.v3.oas.annotations.Operation;
import java.time.Instant;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The dashboard's reads and its one forwarded action, on the booking they concern: a tenant sees and resumes under its
 * own bookings only (another tenant's booking is a 404), an admin under all.
 */
@Controller("/api/v1/bookings")
@Secured(SecurityRule.IS_AUTHENTICATED)
public class DashboardController {

    private final CallerGuard guard;
    private final BookingAccess access;
    private final BookingActivities activities;
    private final ResumeForwarder resumes;
    private final ForwardedIdentitySettings forwarded;

    public DashboardController(
            CallerGuard guard,
            BookingAccess access,
            BookingActivities activities,
            ResumeForwarder resumes,
            ForwardedIdentitySettings forwarded) {
        this.guard = guard;
        this.access = access;
        this.activities = activities;
        this.resumes = resumes;
        this.forwarded = forwarded;
    }

    @Operation(
            summary = "What runs under a booking: its Kueue Workloads (pending, admitted), the workloads "
                    + "idle-reclaimer acted on in its window (reclaimed with the reason, resumed), and its notices "
                    + "(ending soon, no-show warning while ACTIVE; MIG layout not ready with node, state and reason "
                    + "while CONFIRMED or ACTIVE)")
    @Get(uri = "/{id}/workloads", produces = MediaType.APPLICATION_JSON)
    public BookingActivity workloads(@PathVariable String id, Authentication authentication) {
        Caller caller = guard.admit(authentication);
        Booking booking = access.find(id, caller).orElseThrow(() -> BookingAccess.notFound(id));
        return activities.of(booking, Instant.now());
    }

    @Operation(
            summary = "Resume a reclaimed workload in the booking's namespace: forwarded to idle-reclaimer with the "
                    + "caller's own token (idle-reclaimer checks the tenant); kind RayCluster or InferenceService")
    @Post(uri = "/{id}/workloads/{kind}/{name}/resume", consumes = MediaType.ALL, produces = MediaType.APPLICATION_JSON)
    @ExecuteOn(TaskExecutors.BLOCKING)
    public HttpResponse<String> resume(
            @PathVariable String id,
            @PathVariable String kind,
            @PathVariable String name,
            HttpRequest<?> request,
            Authentication authentication) {
        Caller caller = guard.admit(authentication);
        Booking booking = access.find(id, caller).orElseThrow(() -> BookingAccess.notFound(id));
        Optional<Problem> bad = Stream.of(
                        KubernetesNames.label("kind", kind.toLowerCase(java.util.Locale.ROOT)),
                        KubernetesNames.subdomain("name", name))
                .flatMap(Optional::stream)
                .findFirst();
        if (bad.isPresent()) {
            throw ProblemException.badRequest(bad.get());
        }
        String body = resumes.resume(booking.namespace(), kind, name, CallerCredential.of(request, forwarded));
        return HttpResponse.ok(body).contentType(MediaType.APPLICATION_JSON_TYPE);
    }
}
