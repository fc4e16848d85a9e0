package io.gpuaas.reclaim.it;

import io.gpuaas.reclaim.IdleReclaimer;
import io.gpuaas.reclaim.apply.ScaleAction;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The test seam of {@link ReclaimerFaultsIT}: a switch around the applier's write side that makes every attempt throw
 * before anything is written, as a bug in the applier would. Only in contexts started with {@value #ENABLED}, where
 * {@link Seam} hands the reclaimer {@link IdleReclaimer.Options} that wrap its scaler with this.
 */
@Singleton
@Requires(property = FaultyScaleAction.ENABLED, value = "true")
class FaultyScaleAction {

    static final String ENABLED = "gpuaas.test.faulty-scale-action";

    private final AtomicBoolean failing = new AtomicBoolean();
    private final AtomicInteger thrown = new AtomicInteger();

    void failing(boolean on) {
        failing.set(on);
    }

    /** Attempts that threw since the context started. */
    int thrown() {
        return thrown.get();
    }

    ScaleAction around(ScaleAction scaler) {
        return (workload, gpuGroups, actionId, dryRun) -> {
            if (failing.get()) {
                thrown.incrementAndGet();
                throw new IllegalStateException("injected: the applier breaks on " + actionId);
            }
            return scaler.reclaim(workload, gpuGroups, actionId, dryRun);
        };
    }

    @Factory
    @Requires(property = FaultyScaleAction.ENABLED, value = "true")
    static class Seam {

        @Singleton
        IdleReclaimer.Options options(FaultyScaleAction faulty) {
            return new IdleReclaimer.Options(faulty::around);
        }
    }
}
