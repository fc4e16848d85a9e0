package io.gpuaas.reclaim.keep;

import io.gpuaas.events.reclaim.KeepRequested;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.reclaim.model.WorkloadInfo;
import io.gpuaas.reclaim.model.WorkloadLookup;
import java.time.Clock;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * "Keep it" at the HTTP edge: the workload must be known (the informer cache), the answer within the bounds of
 * {@link KeepBook}; then a {@link KeepRequested} goes to {@code reclaim-keeps} and the stream decides it. The edge's
 * clock stamps the answer once; from there on only that time counts, so a replay decides the same.
 */
public final class KeepService {

    private final WorkloadLookup workloads;
    private final KeepBook book;
    private final Consumer<KeepRequested> sink;
    private final Clock clock;

    /** @param sink publishes an answer and returns once it is durable */
    public KeepService(WorkloadLookup workloads, KeepBook book, Consumer<KeepRequested> sink, Clock clock) {
        this.workloads = workloads;
        this.book = book;
        this.sink = sink;
        this.clock = clock;
    }

    /**
     * @return empty when the workload is not known here; otherwise the edge's verdict, the answer sent when within
     */
    public Optional<KeepBook.Verdict> keep(WorkloadRef ref, int hours, String requestedBy) {
        Optional<WorkloadInfo> info = workloads.find(ref);
        if (info.isEmpty()) {
            return Optional.empty();
        }
        String requestId = UUID.randomUUID().toString();
        KeepRequested answer =
                new KeepRequested(ref, info.get().tenant(), requestId, hours, requestedBy, clock.instant());
        KeepBook.Verdict verdict = book.reserve(ref, requestId, hours, answer.time());
        if (verdict instanceof KeepBook.Within) {
            try {
                sink.accept(answer);
            } catch (RuntimeException e) {
                book.release(ref, requestId);
                throw e;
            }
        }
        return Optional.of(verdict);
    }
}
