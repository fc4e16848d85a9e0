package io.gpuaas.reclaim.http;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.gpuaas.events.reclaim.ReclaimEvent.ScaledGroup;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.kit.http.KubernetesNames;
import io.gpuaas.kit.http.Problem;
import io.gpuaas.kit.http.TenantRateLimiter;
import io.gpuaas.kit.security.CallerResolver;
import io.gpuaas.reclaim.config.ResumeLimits;
import io.gpuaas.reclaim.k8s.ResumeService;
import io.gpuaas.reclaim.k8s.WorkloadNotFoundException;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.authentication.Authentication;
import io.micronaut.security.rules.SecurityRule;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * {@code POST /api/v1/workloads/{namespace}/{kind}/{name}/resume}: the tenant owning the namespace, or an admin,
 * restores a reclaimed workload. The names are checked against the Kubernetes rules before anything else, so a
 * crafted path ({@code ..%2F..%2Fteam-b}, {@code a%0d%0ab}) is a 400 and never an API call or a ReclaimFailed. A
 * namespace the caller does not own answers 404, like one that does not exist, so tenants learn nothing about each
 * other's workloads. Each tenant's resumes are rate-limited (429 with Retry-After).
 */
@Controller("/api/v1/workloads")
@Secured(SecurityRule.IS_AUTHENTICATED)
public class ResumeController {

    private final ResumeService resumes;
    private final CallerResolver callers;
    private final TenantRateLimiter limiter;

    public ResumeController(ResumeService resumes, CallerResolver callers, ResumeLimits limits) {
        this.resumes = resumes;
        this.callers = callers;
        this.limiter = new TenantRateLimiter(limits.requestsPerSecond(), limits.burst());
    }

    /** The restored workload and its groups with the replica counts they were given back. */
    public record ResumeResponse(WorkloadRef workload, List<ScaledGroup> groups) {}

    @Post("/{namespace}/{kind}/{name}/resume")
    @ExecuteOn(TaskExecutors.BLOCKING)
    public HttpResponse<?> resume(
            @PathVariable String namespace,
            @PathVariable String kind,
            @PathVariable String name,
            Authentication authentication,
            HttpRequest<?> request) {
        String path = request.getPath();
        Optional<String> canonical = WorkloadRef.canonicalKind(kind);
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
        Optional<Duration> wait = limiter.tryAcquire(tenantOf(authentication));
        if (wait.isPresent()) {
            long seconds = Math.max(1, (long) Math.ceil(wait.get().toMillis() / 1000.0));
            return Problem.of(
                            HttpStatus.TOO_MANY_REQUESTS,
                            "RATE_LIMITED",
                            null,
                            "too many resumes for this tenant, retry in " + seconds + " s")
                    .response(path)
                    .header(HttpHeaders.RETRY_AFTER, Long.toString(seconds));
        }
        try {
            return resumes.resume(ref, authentication.getName(), "api")
                    .<HttpResponse<?>>map(groups -> HttpResponse.ok(new ResumeResponse(ref, groups)))
                    .orElseGet(() -> Problem.of(
                                    HttpStatus.CONFLICT, "MUST_BE_RECLAIMED", "name", ref.key() + " is not reclaimed")
                            .response(path));
        } catch (WorkloadNotFoundException e) {
            return notFound(ref, path);
        } catch (KubernetesClientException | IllegalArgumentException e) {
            // The API server's message stays in our log and the ReclaimFailed event, not in the answer.
            return Problem.of(
                            HttpStatus.SERVICE_UNAVAILABLE,
                            "KUBERNETES_API",
                            null,
                            "the resume of " + ref.key() + " could not be applied, retry later")
                    .response(path);
        }
    }

    /** Admins may have no tenant: their bucket is their own subject's. */
    private String tenantOf(Authentication authentication) {
        String tenant = callers.caller(authentication).tenant();
        return tenant != null ? tenant : "subject:" + authentication.getName();
    }

    private static HttpResponse<?> notFound(WorkloadRef ref, String path) {
        return Problem.of(HttpStatus.NOT_FOUND, "WORKLOAD_EXISTS", "name", ref.key() + " not found")
                .response(path);
    }
}
