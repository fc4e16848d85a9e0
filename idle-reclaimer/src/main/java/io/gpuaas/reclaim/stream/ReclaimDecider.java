package io.gpuaas.reclaim.stream;

import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.reclaim.config.ReclaimerSettings.Mode;
import io.gpuaas.reclaim.k8s.ScaleOutcome;
import io.gpuaas.reclaim.metrics.ReclaimerMetrics;
import io.gpuaas.reclaim.model.ActionRateLimiter;
import io.gpuaas.reclaim.model.DeviceState;
import io.gpuaas.reclaim.model.WorkloadInfo;
import io.gpuaas.reclaim.model.WorkloadVerdict;
import io.gpuaas.reclaim.model.WorkloadWindows;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * What to do once a workload's window closed idle: report it (keda mode, dry-run, opt-out, Kueue), or scale it
 * to zero under an action id derived from the window, so that re-processing the same samples after a restart
 * finds the same id on the object and applies nothing twice. Moves the workload's phase accordingly.
 */
public final class ReclaimDecider {

    private final Mode mode;
    private final boolean dryRun;
    private final ActionRateLimiter limiter;
    private final ScaleAction scaler;
    private final ReclaimerMetrics metrics;
    private final Clock clock;
    private final long retryAfterMillis;

    public ReclaimDecider(Mode mode, boolean dryRun, ActionRateLimiter limiter, ScaleAction scaler,
                          ReclaimerMetrics metrics, Clock clock, Duration retryAfter) {
        this.mode = mode;
        this.dryRun = dryRun;
        this.limiter = limiter;
        this.scaler = scaler;
        this.metrics = metrics;
        this.clock = clock;
        this.retryAfterMillis = retryAfter.toMillis();
    }

    /**
     * @param sampleMillis time of the sample that closed the window
     * @return the events to publish, in order
     */
    public List<ReclaimEvent> decide(WorkloadRef ref, WorkloadInfo info, WorkloadWindows state, WorkloadVerdict v,
                                     long sampleMillis) {
        List<ReclaimEvent> events = new ArrayList<>();
        String tenant = info.tenant();
        if (state.phase() == WorkloadWindows.Phase.ACTIVE) {
            events.add(new ReclaimEvent.IdleDetected(ref, tenant, v.devices(), Instant.ofEpochMilli(v.windowStart()),
                    info.policy().window().toSeconds(), info.policy().threshold(), v.maxUtilization(), v.coverage(),
                    mode.label(), clock.instant()));
            metrics.idleDetected(ref, mode.label());
        }
        if (mode == Mode.KEDA) {
            state.markReported(sampleMillis, WorkloadWindows.NEVER);
            return events;
        }
        if (!info.policy().reclaimEnabled()) {
            events.add(skip(ref, tenant, "OPTED_OUT", ref.key() + " opted out with gpuaas.io/reclaim"));
            state.markReported(sampleMillis, WorkloadWindows.NEVER);
            return events;
        }
        if (!dryRun && !limiter.tryAcquire()) {
            events.add(skip(ref, tenant, "RATE_LIMITED", "reclaim cap per minute reached; retried later"));
            state.markReported(sampleMillis, sampleMillis + retryAfterMillis);
            return events;
        }
        events.add(act(ref, tenant, state, v, sampleMillis));
        return events;
    }

    /** Scales the workload down (or pretends to, in dry-run) and moves its phase by the outcome. */
    private ReclaimEvent act(WorkloadRef ref, String tenant, WorkloadWindows state, WorkloadVerdict v,
                             long sampleMillis) {
        String actionId = ref.key() + "@" + Instant.ofEpochMilli(v.windowStart());
        ScaleOutcome outcome = scaler.reclaim(ref, groups(state), actionId, dryRun);
        return switch (outcome) {
            case ScaleOutcome.Applied applied -> {
                if (dryRun) {
                    metrics.reclaimed(ref, "dry_run", v.devices());
                    state.markReported(sampleMillis, WorkloadWindows.NEVER);
                } else {
                    metrics.reclaimed(ref, applied.alreadyApplied() ? "already_applied" : "reclaimed", v.devices());
                    metrics.closeToPatch((clock.millis() - sampleMillis) / 1000.0);
                    state.markReclaimed(actionId, sampleMillis);
                }
                yield new ReclaimEvent.Reclaimed(ref, tenant, applied.groups(), v.devices(), v.idleMillis() / 1000,
                        applied.action(), dryRun, clock.instant());
            }
            case ScaleOutcome.Skipped skipped -> {
                state.markReported(sampleMillis, WorkloadWindows.NEVER);
                yield skip(ref, tenant, skipped.reason(), skipped.message());
            }
            case ScaleOutcome.Failed failed -> {
                metrics.failed(failed.reason());
                state.markReported(sampleMillis, sampleMillis + retryAfterMillis);
                yield new ReclaimEvent.ReclaimFailed(ref, tenant, failed.reason(), failed.message(), clock.instant());
            }
        };
    }

    private ReclaimEvent skip(WorkloadRef ref, String tenant, String reason, String message) {
        metrics.skipped(reason);
        return new ReclaimEvent.ReclaimSkipped(ref, tenant, reason, message, clock.instant());
    }

    private static Set<String> groups(WorkloadWindows state) {
        Set<String> groups = new TreeSet<>();
        for (DeviceState d : state.devices().values()) {
            groups.add(d.group());
        }
        return groups;
    }
}
