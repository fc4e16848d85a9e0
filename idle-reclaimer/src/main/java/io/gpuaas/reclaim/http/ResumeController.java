package io.gpuaas.reclaim.http;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.gpuaas.events.reclaim.ReclaimEvent.ScaledGroup;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.kit.security.CallerResolver;
import io.gpuaas.reclaim.k8s.ResumeService;
import io.gpuaas.reclaim.k8s.WorkloadNotFoundException;
import io.gpuaas.reclaim.model.Owner;
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
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code POST /api/v1/workloads/{namespace}/{kind}/{name}/resume}: the tenant owning the namespace, or an admin,
 * restores a reclaimed workload. A namespace the caller does not own answers 404, like one that does not exist, so
 * tenants learn nothing about each other's workloads.
 */
@Controller("/api/v1/workloads")
@Secured(SecurityRule.IS_AUTHENTICATED)
public class ResumeController {

    private final ResumeService resumes;
    private final CallerResolver callers;

    public ResumeController(ResumeService resumes, CallerResolver callers) {
        this.resumes = resumes;
        this.callers = callers;
    }

    /** The restored workload and its groups with the replica counts they were given back. */
    public record ResumeResponse(WorkloadRef workload, List<ScaledGroup> groups) {
    }

    @Post("/{namespace}/{kind}/{name}/resume")
    @ExecuteOn(TaskExecutors.BLOCKING)
    public HttpResponse<?> resume(@PathVariable String namespace, @PathVariable String kind,
                                  @PathVariable String name, Authentication authentication) {
        Optional<String> canonical = canonicalKind(kind);
        if (canonical.isEmpty()) {
            return Problem.of(HttpStatus.BAD_REQUEST, "kind must be RayCluster or InferenceService, got " + kind,
                    "kind", "reclaimable-kind");
        }
        WorkloadRef ref = new WorkloadRef(namespace, canonical.get(), name);
        if (!callers.mayAccess(authentication, namespace)) {
            return notFound(ref);
        }
        try {
            return resumes.resume(ref, authentication.getName(), "api")
                    .<HttpResponse<?>>map(groups -> HttpResponse.ok(new ResumeResponse(ref, groups)))
                    .orElseGet(() -> Problem.of(HttpStatus.CONFLICT, ref.key() + " is not reclaimed", "name",
                            "must-be-reclaimed"));
        } catch (WorkloadNotFoundException e) {
            return notFound(ref);
        } catch (KubernetesClientException | IllegalArgumentException e) {
            return Problem.of(HttpStatus.SERVICE_UNAVAILABLE, "resume of " + ref.key() + " failed: " + e.getMessage(),
                    null, "kubernetes-api");
        }
    }

    private static HttpResponse<?> notFound(WorkloadRef ref) {
        return Problem.of(HttpStatus.NOT_FOUND, ref.key() + " not found", "name", "workload-exists");
    }

    static Optional<String> canonicalKind(String kind) {
        return switch (kind.toLowerCase(Locale.ROOT)) {
            case "raycluster", "rayclusters" -> Optional.of(Owner.RAY_CLUSTER);
            case "inferenceservice", "inferenceservices", "isvc" -> Optional.of(Owner.INFERENCE_SERVICE);
            default -> Optional.empty();
        };
    }
}
