package io.gpuaas.reclaim.k8s;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.events.reclaim.ReclaimEvent.ScaledGroup;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.kit.http.KubernetesNames;
import io.gpuaas.reclaim.metrics.ReclaimerMetrics;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/** Restores a reclaimed workload to its stored values and says so on {@code reclaim-events}. */
public final class ResumeService {

    private final WorkerScaler scaler;
    private final WorkloadDirectory directory;
    private final Consumer<ReclaimEvent> events;
    private final ReclaimerMetrics metrics;
    private final Clock clock = Clock.systemUTC();

    /**
     * @param events publishes an event on {@code reclaim-events} and returns once the broker has it (the service's
     *               {@code kafka.ReclaimEventPublisher}), so an HTTP caller is answered only once it is durable
     */
    public ResumeService(
            WorkerScaler scaler, WorkloadDirectory directory, Consumer<ReclaimEvent> events, ReclaimerMetrics metrics) {
        this.scaler = scaler;
        this.directory = directory;
        this.events = events;
        this.metrics = metrics;
    }

    /**
     * @param requestedBy subject of the caller, or {@code annotation}
     * @return the restored groups; empty when the workload was not reclaimed
     * @throws WorkloadNotFoundException when the object does not exist
     * @throws IllegalArgumentException   when the namespace or name cannot be a Kubernetes name (nothing is tried
     *                                    and no ReclaimFailed is published: bad input is not a failed resume)
     */
    public Optional<List<ScaledGroup>> resume(WorkloadRef ref, String requestedBy, String trigger) {
        // The HTTP edge checks first; this keeps every other caller from sending a path such as ../../ to the API.
        KubernetesNames.label("namespace", ref.namespace())
                .or(() -> KubernetesNames.subdomain("name", ref.name()))
                .ifPresent(problem -> {
                    throw new IllegalArgumentException(problem.detail());
                });
        String tenant = directory.tenantOf(ref.namespace());
        List<ScaledGroup> groups;
        try {
            groups = scaler.resume(ref);
        } catch (KubernetesClientException | IllegalArgumentException e) {
            metrics.failed("RESUME_FAILED");
            events.accept(new ReclaimEvent.ReclaimFailed(
                    ref, tenant, "RESUME_FAILED", ref.key() + ": " + e.getMessage(), clock.instant()));
            throw e;
        }
        if (groups == null) {
            return Optional.empty();
        }
        metrics.resumed(ref, trigger);
        events.accept(new ReclaimEvent.Resumed(ref, tenant, groups, requestedBy, clock.instant()));
        return Optional.of(groups);
    }
}
