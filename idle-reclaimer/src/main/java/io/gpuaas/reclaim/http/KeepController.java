package io.gpuaas.reclaim.http;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import io.gpuaas.events.Json;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.kit.http.KubernetesNames;
import io.gpuaas.kit.http.Problem;
import io.gpuaas.kit.security.CallerResolver;
import io.gpuaas.reclaim.keep.KeepBook;
import io.gpuaas.reclaim.keep.KeepService;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.authentication.Authentication;
import io.micronaut.security.rules.SecurityRule;
import java.time.Instant;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * {@code POST /api/v1/workloads/{namespace}/{kind}/{name}/keep} with {@code {"hours": n}}: the tenant owning the
 * namespace, or an admin, answers a ReclaimPending with "keep it". The path is checked as the resume's is (400 before
 * anything else), then ownership and existence (404 alike, so tenants learn nothing of each other), then the hours
 * (400 when not a whole number of at least 1) and the bounds (422 beyond the per-answer bound, 409 beyond the day's,
 * naming the bound and what is left). Within them the answer goes to {@code reclaim-keeps} and the caller gets 202:
 * the stream decides it, and its {@code ReclaimKept} on {@code reclaim-events} is the grant.
 */
@Controller("/api/v1/workloads")
@Secured(SecurityRule.IS_AUTHENTICATED)
public class KeepController {

    private final KeepService keeps;
    private final CallerResolver callers;

    public KeepController(KeepService keeps, CallerResolver callers) {
        this.keeps = keeps;
        this.callers = callers;
    }

    /** The answer as sent: what the stream will grant unless another answer took the day's hours first. */
    public record KeepResponse(WorkloadRef workload, int hours, Instant keptUntil, int hoursToday, int hoursLeft) {}

    @Post("/{namespace}/{kind}/{name}/keep")
    @ExecuteOn(TaskExecutors.BLOCKING)
    public HttpResponse<?> keep(
            @PathVariable String namespace,
            @PathVariable String kind,
            @PathVariable String name,
            @Nullable @Body String body,
            Authentication authentication,
            HttpRequest<?> request) {
        String path = request.getPath();
        Optional<String> canonical = ResumeController.canonicalKind(kind);
        if (canonical.isEmpty()) {
            return Problem.of(
                            HttpStatus.BAD_REQUEST,
                            "RECLAIMABLE_KIND",
                            "kind",
                            "kind must be RayCluster or InferenceService")
                    .response(path);
        }
        Optional<Problem> badName = Stream.of(
                        KubernetesNames.label("namespace", namespace), KubernetesNames.subdomain("name", name))
                .flatMap(Optional::stream)
                .findFirst();
        if (badName.isPresent()) {
            return badName.get().response(path);
        }
        WorkloadRef ref = new WorkloadRef(namespace, canonical.get(), name);
        if (!callers.mayAccess(authentication, namespace)) {
            return notFound(ref, path);
        }
        Optional<Integer> hours = hours(body);
        if (hours.isEmpty()) {
            return Problem.of(
                            HttpStatus.BAD_REQUEST,
                            "KEEP_HOURS",
                            "hours",
                            "the body must be {\"hours\": n} with n a whole number of at least 1")
                    .response(path);
        }
        Optional<KeepBook.Verdict> verdict;
        try {
            verdict = keeps.keep(ref, hours.get(), authentication.getName());
        } catch (IllegalStateException e) {
            return Problem.of(
                            HttpStatus.SERVICE_UNAVAILABLE,
                            "KAFKA",
                            null,
                            "the keep of " + ref.key() + " could not be recorded, retry later")
                    .response(path);
        }
        if (verdict.isEmpty()) {
            return notFound(ref, path);
        }
        return switch (verdict.get()) {
            case KeepBook.Within w ->
                HttpResponse.accepted()
                        .body(new KeepResponse(ref, hours.get(), w.keptUntil(), w.hoursToday(), w.hoursLeft()));
            case KeepBook.Beyond b ->
                Problem.of(
                                "per-answer".equals(b.bound()) ? HttpStatus.UNPROCESSABLE_ENTITY : HttpStatus.CONFLICT,
                                "KEEP_BOUND",
                                "hours",
                                ref.key() + " may be kept at most " + b.maxHours() + " h " + b.bound() + "; " + b.left()
                                        + " h left today")
                        .with("bound", b.bound())
                        .with("maxHours", b.maxHours())
                        .with("hoursLeft", b.left())
                        .response(path);
        };
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

    private static HttpResponse<?> notFound(WorkloadRef ref, String path) {
        return Problem.of(HttpStatus.NOT_FOUND, "WORKLOAD_EXISTS", "name", ref.key() + " not found")
                .response(path);
    }
}
