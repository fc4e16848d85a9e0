package io.gpuaas.reclaim.k8s;

import io.gpuaas.events.reclaim.WorkloadRef;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Provider;
import jakarta.inject.Singleton;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Resumes asked for with the {@code gpuaas.io/resume: "true"} annotation. The informer handler only enqueues the
 * key; one worker thread resumes one key at a time, and a key already queued is not queued twice.
 */
@Singleton
public class ResumeRequests {

    private static final Logger LOG = LoggerFactory.getLogger(ResumeRequests.class);

    private final Provider<ResumeService> resumes;
    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> new Thread(r, "resume-requests"));
    private final Set<WorkloadRef> queued = ConcurrentHashMap.newKeySet();

    public ResumeRequests(Provider<ResumeService> resumes) {
        this.resumes = resumes;
    }

    public void request(WorkloadRef ref) {
        if (!queued.add(ref)) {
            return;
        }
        worker.execute(() -> {
            queued.remove(ref);
            try {
                resumes.get().resume(ref, "annotation", "annotation");
            } catch (RuntimeException e) {
                LOG.warn("resume of {} by annotation failed: {}", ref.key(), e.getMessage());
            }
        });
    }

    @PreDestroy
    void close() throws InterruptedException {
        worker.shutdown();
        worker.awaitTermination(5, TimeUnit.SECONDS);
    }
}
