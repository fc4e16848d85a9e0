package io.gpuaas.quota.k8s;

import io.gpuaas.quota.metrics.QuotaProjectorMetrics;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code gpuaas_quota_boundary_lag_seconds}: from a window boundary to the moment every object its plan changed has
 * been reconciled with that plan or a later one. A key reconciled with an older plan (it was in flight when the
 * boundary's plan ran) does not count; the loop reconciles it again.
 */
final class BoundaryLag {

    private static final Logger LOG = LoggerFactory.getLogger(BoundaryLag.class);
    /** Boundaries still being applied that are remembered; older ones are dropped (a loop stuck on a key). */
    private static final int LIMIT = 256;

    private record Pending(Instant boundary, long generation, Set<ObjectRef> keys) {}

    private final Clock clock;
    private final QuotaProjectorMetrics metrics;
    private final List<Pending> pending = new ArrayList<>();

    BoundaryLag(Clock clock, QuotaProjectorMetrics metrics) {
        this.clock = clock;
        this.metrics = metrics;
    }

    /** The plan of {@code generation} applies {@code boundary} by reconciling {@code keys}. */
    synchronized void boundary(Instant boundary, long generation, Collection<ObjectRef> keys) {
        if (keys.isEmpty()) {
            observe(boundary);
            return;
        }
        if (pending.size() == LIMIT) {
            pending.removeFirst();
        }
        pending.add(new Pending(boundary, generation, new HashSet<>(keys)));
    }

    /** {@code ref} was reconciled with the plan of {@code generation}. */
    synchronized void applied(ObjectRef ref, long generation) {
        for (Iterator<Pending> it = pending.iterator(); it.hasNext(); ) {
            Pending p = it.next();
            if (p.generation() <= generation && p.keys().remove(ref) && p.keys().isEmpty()) {
                it.remove();
                observe(p.boundary());
            }
        }
    }

    synchronized boolean idle() {
        return pending.isEmpty();
    }

    /** A new term measures its own boundaries. */
    synchronized void clear() {
        pending.clear();
    }

    private void observe(Instant boundary) {
        Duration lag = Duration.between(boundary, clock.instant());
        metrics.boundaryApplied(lag.toNanos() / 1e9);
        LOG.debug("boundary {} applied {} ms after it", boundary, lag.toMillis());
    }
}
