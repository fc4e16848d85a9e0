package io.gpuaas.reclaim.apply;

import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.events.reclaim.ReclaimIntent.ReclaimRequested;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.kit.runtime.ReconcileLoop.Outcome;
import io.gpuaas.kit.runtime.ReconcileLoop.Reconciler;
import io.gpuaas.reclaim.config.ReclaimerSettings.Mode;
import io.gpuaas.reclaim.k8s.ScaleOutcome;
import io.gpuaas.reclaim.metrics.ReclaimerMetrics;
import io.gpuaas.reclaim.model.ActionRateLimiter;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies the oldest open reclaim intent of one workload: rate limit, one scale-down under the intent's window id
 * (the scaler finds that id on the object when it is already applied, and writes nothing), then the outcome for
 * the intake to publish with the offset. Outside any Kafka transaction: a slow API server holds one worker and one
 * workload, never a stream thread.
 *
 * <p>An attempt that fails for a reason that may pass (the API server, an unreadable annotation someone can fix) is
 * reported once and retried with backoff up to {@code retryAfter}, until it works or the stream withdraws the
 * intent because the workload is busy again; a workload that is gone ends it. A retry is not a reconcile failure
 * of the loop: one broken object must not take the service out of readiness.
 */
public final class ReclaimApplier implements Reconciler<WorkloadRef> {

    private static final Logger LOG = LoggerFactory.getLogger(ReclaimApplier.class);
    private static final Duration NOT_SYNCED_DELAY = Duration.ofMillis(500);
    private static final Duration MIN_WAIT = Duration.ofMillis(100);

    private final PendingIntents pending;
    private final ScaleAction scaler;
    private final ActionRateLimiter limiter;
    private final Mode mode;
    private final boolean dryRun;
    private final ReclaimerMetrics metrics;
    private final Clock clock;
    private final Duration retryAfter;
    private final BooleanSupplier informersSynced;

    /**
     * @param mode            this instance's mode: in keda mode intents left by a direct-mode run are skipped
     * @param dryRun          this instance's dry-run: it applies every intent as a dry run, whatever the intent says
     * @param retryAfter      longest wait between two attempts of a failed reclaim
     * @param informersSynced whether the pod informer has listed: until then a RayCluster's workers to delete are
     *                        unknown, so nothing is applied
     */
    public ReclaimApplier(
            PendingIntents pending,
            ScaleAction scaler,
            ActionRateLimiter limiter,
            Mode mode,
            boolean dryRun,
            ReclaimerMetrics metrics,
            Clock clock,
            Duration retryAfter,
            BooleanSupplier informersSynced) {
        this.pending = pending;
        this.scaler = scaler;
        this.limiter = limiter;
        this.mode = mode;
        this.dryRun = dryRun;
        this.metrics = metrics;
        this.clock = clock;
        this.retryAfter = retryAfter;
        this.informersSynced = informersSynced;
    }

    @Override
    public Outcome reconcile(WorkloadRef workload) {
        if (!pending.hasWork(workload)) {
            return Outcome.done();
        }
        if (!informersSynced.getAsBoolean()) {
            return Outcome.requeueAfter(NOT_SYNCED_DELAY);
        }
        PendingIntents.Entry entry = pending.take(workload);
        if (entry == null) {
            return Outcome.done();
        }
        try {
            return apply(entry);
        } catch (RuntimeException e) {
            pending.release(entry);
            throw e;
        }
    }

    private Outcome apply(PendingIntents.Entry entry) {
        ReclaimRequested intent = entry.intent();
        if (entry.withdrawn()) {
            return finish(
                    entry,
                    skip(
                            intent,
                            "BUSY_AGAIN",
                            intent.workload().key() + " was busy again before the reclaim was applied"));
        }
        if (mode == Mode.KEDA) {
            return finish(entry, skip(intent, "KEDA_MODE", "the reclaimer runs in keda mode and scales nothing"));
        }
        boolean dry = intent.dryRun() || dryRun;
        if (!dry && !entry.holdsToken()) {
            if (!limiter.tryAcquire()) {
                return rateLimited(entry);
            }
            entry.tookToken();
        }
        ScaleOutcome outcome = scaler.reclaim(intent.workload(), Set.copyOf(intent.groups()), intent.windowId(), dry);
        return switch (outcome) {
            case ScaleOutcome.Applied applied -> finish(entry, reclaimed(intent, applied, dry));
            case ScaleOutcome.Skipped skipped -> finish(entry, skip(intent, skipped.reason(), skipped.message()));
            case ScaleOutcome.Failed failed -> failed(entry, failed);
        };
    }

    private Outcome rateLimited(PendingIntents.Entry entry) {
        if (!entry.rateLimitReported()) {
            ReclaimRequested intent = entry.intent();
            pending.reportRateLimited(
                    entry, skip(intent, "RATE_LIMITED", "reclaim cap per minute reached; applied when the cap allows"));
        }
        pending.release(entry);
        Duration wait = Duration.ofMillis(limiter.millisUntilFree());
        return Outcome.requeueAfter(wait.compareTo(MIN_WAIT) < 0 ? MIN_WAIT : wait);
    }

    private ReclaimEvent.Reclaimed reclaimed(ReclaimRequested intent, ScaleOutcome.Applied applied, boolean dry) {
        WorkloadRef ref = intent.workload();
        if (dry) {
            metrics.reclaimed(ref, "dry_run", intent.devices());
        } else if (applied.alreadyApplied()) {
            metrics.reclaimed(ref, "already_applied", intent.devices());
        } else {
            metrics.reclaimed(ref, "reclaimed", intent.devices());
            metrics.closeToPatch((clock.millis() - intent.windowClosedAt().toEpochMilli()) / 1000.0);
        }
        return new ReclaimEvent.Reclaimed(
                ref,
                intent.tenant(),
                applied.groups(),
                intent.devices(),
                intent.idleSeconds(),
                applied.action(),
                dry,
                clock.instant());
    }

    private Outcome failed(PendingIntents.Entry entry, ScaleOutcome.Failed failed) {
        ReclaimRequested intent = entry.intent();
        metrics.failed(failed.reason());
        ReclaimEvent.ReclaimFailed event = new ReclaimEvent.ReclaimFailed(
                intent.workload(), intent.tenant(), failed.reason(), failed.message(), clock.instant());
        if ("NOT_FOUND".equals(failed.reason())) {
            return finish(entry, event);
        }
        if (!entry.failureReported()) {
            pending.reportFailure(entry, event);
        }
        int attempts = entry.failed();
        pending.release(entry);
        return Outcome.requeueAfter(backoff(attempts));
    }

    private Outcome finish(PendingIntents.Entry entry, ReclaimEvent outcome) {
        if (!pending.finish(entry, outcome)) {
            LOG.info(
                    "{}: its partition moved to another applier while it was applied; that one publishes the outcome",
                    entry.intent().windowId());
        }
        return pending.hasWork(entry.intent().workload()) ? Outcome.requeueAfter(Duration.ZERO) : Outcome.done();
    }

    private ReclaimEvent.ReclaimSkipped skip(ReclaimRequested intent, String reason, String message) {
        metrics.skipped(reason);
        return new ReclaimEvent.ReclaimSkipped(intent.workload(), intent.tenant(), reason, message, clock.instant());
    }

    /** About a second after the first failure, doubling, at most {@code retryAfter}, drawn from the upper half. */
    private Duration backoff(int attempts) {
        long ceiling = Math.min(retryAfter.toMillis(), 1_000L << Math.min(attempts - 1, 16));
        long half = Math.max(1, ceiling / 2);
        return Duration.ofMillis(half + ThreadLocalRandom.current().nextLong(ceiling - half + 1));
    }
}
