package io.gpuaas.metrics.http;

import io.gpuaas.events.quota.QueueState;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.kit.config.SecuritySettings;
import io.gpuaas.kit.http.KubernetesNames;
import io.gpuaas.kit.http.Problem;
import io.gpuaas.kit.security.CallerResolver;
import io.gpuaas.metrics.metrics.MetricsGatewayMetrics;
import io.gpuaas.metrics.projection.QueueDepth;
import io.gpuaas.metrics.projection.ReclaimState;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.authentication.Authentication;
import io.micronaut.security.rules.SecurityRule;
import java.util.List;
import java.util.Optional;

/**
 * KEDA metrics-api endpoints (trigger {@code metrics-api}, {@code valueLocation} one of the JSON fields).
 * A tenant reads its own namespaces; the admin and metrics roles read all. An unknown queue or workload answers
 * zeros with {@code known: false} rather than 404, so a ScaledObject created before its queue does not error.
 * Names that Kubernetes could not hold (namespace: DNS-1123 label; queue and workload: DNS-1123 subdomain; kind:
 * RayCluster or InferenceService) are a 400 problem: they can name nothing, and a typo should not read as idle.
 */
@Controller("/api/v1/keda")
@Secured(SecurityRule.IS_AUTHENTICATED)
public class KedaController {

    private final QueueDepth queues;
    private final ReclaimState reclaims;
    private final CallerResolver callers;
    private final SecuritySettings security;

    public KedaController(QueueDepth queues, ReclaimState reclaims, CallerResolver callers, SecuritySettings security) {
        this.queues = queues;
        this.reclaims = reclaims;
        this.callers = callers;
        this.security = security;
    }

    /**
     * The reclaimable kinds exactly as events spell them ({@link WorkloadRef}): a ScaledObject names one spelling, so
     * unlike the workload paths of the other services no case or plural is taken here.
     */
    static final List<String> KINDS = List.of(WorkloadRef.RAY_CLUSTER, WorkloadRef.INFERENCE_SERVICE);

    @Get("/queues/{namespace}/{localQueue}")
    public HttpResponse<?> queue(String namespace, String localQueue, Authentication caller, HttpRequest<?> request) {
        Optional<Problem> bad = KubernetesNames.label("namespace", namespace)
                .or(() -> KubernetesNames.subdomain("localQueue", localQueue));
        if (bad.isPresent()) {
            return bad.get().response(request.getPath());
        }
        if (!allowed(caller, namespace)) {
            return forbidden(namespace, request.getPath());
        }
        return HttpResponse.ok(queues.localQueue(namespace, localQueue)
                .map(q -> QueueMetric.of(q))
                .orElse(new QueueMetric(namespace, localQueue, null, 0, 0, 0, false)));
    }

    @Get("/workloads/{namespace}/{kind}/{name}")
    public HttpResponse<?> workload(
            String namespace, String kind, String name, Authentication caller, HttpRequest<?> request) {
        Optional<Problem> bad = KubernetesNames.label("namespace", namespace)
                .or(() -> KINDS.contains(kind)
                        ? Optional.empty()
                        : Optional.of(Problem.of(
                                        HttpStatus.BAD_REQUEST,
                                        "RECLAIMABLE_KIND",
                                        "kind",
                                        "kind must be one of " + KINDS)
                                .with("allowed", KINDS)))
                .or(() -> KubernetesNames.subdomain("name", name));
        if (bad.isPresent()) {
            return bad.get().response(request.getPath());
        }
        if (!allowed(caller, namespace)) {
            return forbidden(namespace, request.getPath());
        }
        WorkloadRef ref = new WorkloadRef(namespace, kind, name);
        return HttpResponse.ok(reclaims.workload(ref)
                .map(s -> new WorkloadMetric(
                        namespace,
                        kind,
                        name,
                        s.idle() ? 1 : 0,
                        s.idle() ? 0 : 1,
                        s.since() == null ? null : s.since().toString(),
                        true))
                .orElse(new WorkloadMetric(namespace, kind, name, 0, 1, null, false)));
    }

    private boolean allowed(Authentication caller, String namespace) {
        return callers.mayAccess(caller, namespace) || caller.getRoles().contains(security.metricsRole());
    }

    private static HttpResponse<?> forbidden(String namespace, String path) {
        return Problem.of(
                        HttpStatus.FORBIDDEN,
                        "NAMESPACE_NOT_OWNED",
                        "namespace",
                        "namespace " + namespace + " is not one of the caller's namespaces")
                .response(path);
    }

    /** Queue depth of one LocalQueue; {@code pendingGpus} sums the GPU resources of pending workloads. */
    public record QueueMetric(
            String namespace,
            String localQueue,
            String clusterQueue,
            int pendingWorkloads,
            double pendingGpus,
            int admittedWorkloads,
            boolean known) {

        static QueueMetric of(QueueState q) {
            double gpus = MetricsGatewayMetrics.gpuDemand(q.pendingDemand()).values().stream()
                    .mapToDouble(Double::doubleValue)
                    .sum();
            return new QueueMetric(
                    q.namespace(),
                    q.localQueue(),
                    q.clusterQueue(),
                    q.pendingWorkloads(),
                    gpus,
                    q.admittedWorkloads(),
                    true);
        }
    }

    /** The idleness signal of one workload: {@code idle} 1 while reclaimable, {@code active} its complement. */
    public record WorkloadMetric(
            String namespace, String kind, String name, int idle, int active, String since, boolean known) {}
}
