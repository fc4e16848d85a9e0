package io.gpuaas.reclaim.k8s;

import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.kit.runtime.ForwardingComponent;
import io.gpuaas.kit.runtime.ReconcileLoop;
import io.gpuaas.kit.runtime.ReconcileLoop.Outcome;
import io.gpuaas.kit.runtime.ServiceComponent;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Component {@code resume-requests}: resumes asked for with the {@code gpuaas.io/resume: "true"} annotation. The
 * informer handler only enqueues the key on service-kit's {@link ReconcileLoop} (one worker, a key pending at most
 * once); a resume the API server refused is retried with backoff, one that can never work (a name the API would
 * reject, a workload that is gone) is logged and dropped: the annotation brings it back if the object changes.
 */
public final class ResumeRequests implements ForwardingComponent {

    private static final Logger LOG = LoggerFactory.getLogger(ResumeRequests.class);

    private final ReconcileLoop<WorkloadRef> loop;

    /**
     * @param resumes the resume service, asked for on each resume: it reads the workload directory whose informer
     *                handler calls {@link #request}, so it is built after this
     */
    public ResumeRequests(Supplier<ResumeService> resumes, PrometheusRegistry registry) {
        this.loop = ReconcileLoop.<WorkloadRef>builder("resume-requests", ref -> resume(resumes.get(), ref))
                .backoff(Duration.ofSeconds(1), Duration.ofMinutes(1))
                .metrics(registry)
                .build();
    }

    /** Without metrics, for tests that build the reclaimer by hand. */
    public ResumeRequests(Supplier<ResumeService> resumes) {
        this(resumes, new PrometheusRegistry());
    }

    private static Outcome resume(ResumeService resumes, WorkloadRef ref) {
        try {
            resumes.resume(ref, "annotation", "annotation");
        } catch (IllegalArgumentException | WorkloadNotFoundException e) {
            LOG.warn("resume of {} by annotation dropped: {}", ref.key(), e.getMessage());
        }
        return Outcome.done();
    }

    public void request(WorkloadRef ref) {
        loop.enqueue(ref);
    }

    @Override
    public ServiceComponent component() {
        return loop;
    }
}
