package io.gpuaas.reclaim.it;

import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.reclaim.apply.ScaleAction;
import io.gpuaas.reclaim.k8s.ScaleOutcome;
import io.gpuaas.reclaim.k8s.WorkerScaler;
import io.micronaut.context.annotation.Replaces;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The test seam of {@link ReclaimerFaultsIT}: the applier's write side with a switch that makes every attempt throw
 * before anything is written, as a bug in the applier would. Only in contexts started with {@value #ENABLED}.
 */
@Singleton
@Replaces(ScaleAction.class)
@Requires(property = FaultyScaleAction.ENABLED, value = "true")
class FaultyScaleAction implements ScaleAction {

    static final String ENABLED = "gpuaas.test.faulty-scale-action";

    private final WorkerScaler scaler;
    private final AtomicBoolean failing = new AtomicBoolean();
    private final AtomicInteger thrown = new AtomicInteger();

    FaultyScaleAction(WorkerScaler scaler) {
        this.scaler = scaler;
    }

    void failing(boolean on) {
        failing.set(on);
    }

    /** Attempts that threw since the context started. */
    int thrown() {
        return thrown.get();
    }

    @Override
    public ScaleOutcome reclaim(WorkloadRef workload, Set<String> gpuGroups, String actionId, boolean dryRun) {
        if (failing.get()) {
            thrown.incrementAndGet();
            throw new IllegalStateException("injected: the applier breaks on " + actionId);
        }
        return scaler.reclaim(workload, gpuGroups, actionId, dryRun);
    }
}
