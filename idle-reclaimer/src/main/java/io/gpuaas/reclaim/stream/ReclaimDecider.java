package io.gpuaas.reclaim.stream;

import io.gpuaas.events.notice.Notice;
import io.gpuaas.events.reclaim.KeepRequested;
import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.events.reclaim.ReclaimIntent;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.reclaim.config.KeepSettings;
import io.gpuaas.reclaim.config.ReclaimerSettings.Mode;
import io.gpuaas.reclaim.metrics.ReclaimerMetrics;
import io.gpuaas.reclaim.model.DeviceState;
import io.gpuaas.reclaim.model.WorkloadInfo;
import io.gpuaas.reclaim.model.WorkloadVerdict;
import io.gpuaas.reclaim.model.WorkloadWindows;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What to do once a workload's window closed idle: report it (keda mode, opt-out), or ask the applier to scale it
 * to zero under the window's id, so that re-processing the same samples after a restart asks for the same id and
 * the applier, finding it on the object, applies nothing twice. Pure: no API server, no wall-clock budget; moves the
 * workload's phase by what it decided, never by what the applier later does.
 */
public final class ReclaimDecider {

    private static final long HOUR_MILLIS = 3_600_000L;
    private static final long DAY_MILLIS = 24 * HOUR_MILLIS;

    private final Mode mode;
    private final boolean dryRun;
    private final ReclaimerMetrics metrics;
    private final Clock clock;
    private final KeepSettings keeps;

    public ReclaimDecider(Mode mode, boolean dryRun, ReclaimerMetrics metrics, Clock clock) {
        this(mode, dryRun, metrics, clock, KeepSettings.defaults());
    }

    /** @param keeps how long an answer and a day's answers may keep a workload from reclaim */
    public ReclaimDecider(Mode mode, boolean dryRun, ReclaimerMetrics metrics, Clock clock, KeepSettings keeps) {
        this.mode = mode;
        this.dryRun = dryRun;
        this.metrics = metrics;
        this.clock = clock;
        this.keeps = keeps;
    }

    /**
     * A team's "keep it" answer: granted within the bounds (hours of the answer, hours left on its UTC day), from the
     * end of a keep still running or from the answer's time, whichever is later; recorded in the workload's state in
     * the same transaction. Time comes from the answer, never the clock, so a replay decides the same. The answers are
     * booking-service's grants (bounded per booking and UTC day by the pool's policy); this is the reclaimer's own
     * ceiling per workload on top: beyond it nothing is granted, and nothing published.
     */
    public Optional<Decision> keep(WorkloadRef ref, WorkloadWindows state, KeepRequested answer) {
        long at = answer.time().toEpochMilli();
        long day = Math.floorDiv(at, DAY_MILLIS);
        int used = state.keepDay() == day ? state.keepHoursOnDay() : 0;
        int granted = Math.min(answer.hours(), Math.min(keeps.maxHoursPerAnswer(), keeps.maxHoursPerDay() - used));
        if (granted <= 0) {
            metrics.keep("refused");
            return Optional.empty();
        }
        long until = Math.max(state.keepUntilMillis(), at) + granted * HOUR_MILLIS;
        state.markKept(day, used + granted, until);
        metrics.keep("granted");
        return Optional.of(new Decision.Report(new ReclaimEvent.ReclaimKept(
                ref,
                answer.tenant(),
                answer.requestId(),
                granted,
                Instant.ofEpochMilli(until),
                state.devices().size(),
                used + granted,
                keeps.maxHoursPerDay() - used - granted,
                answer.requestedBy(),
                answer.time())));
    }

    /**
     * @param sampleMillis time of the sample that closed the window
     * @return what to publish, in order
     */
    public List<Decision> decide(
            WorkloadRef ref, WorkloadInfo info, WorkloadWindows state, WorkloadVerdict v, long sampleMillis) {
        List<Decision> out = new ArrayList<>();
        String tenant = info.tenant();
        if (state.phase() == WorkloadWindows.Phase.ACTIVE) {
            out.add(new Decision.Report(new ReclaimEvent.IdleDetected(
                    ref,
                    tenant,
                    v.devices(),
                    Instant.ofEpochMilli(v.windowStart()),
                    info.policy().window().toSeconds(),
                    info.policy().threshold(),
                    v.maxUtilization(),
                    v.coverage(),
                    mode.label(),
                    clock.instant())));
            metrics.idleDetected(ref, mode.label());
        }
        if (mode == Mode.KEDA) {
            state.markReported(sampleMillis, WorkloadWindows.NEVER);
            return out;
        }
        if (!info.policy().reclaimEnabled()) {
            metrics.skipped("OPTED_OUT");
            out.add(new Decision.Report(new ReclaimEvent.ReclaimSkipped(
                    ref, tenant, "OPTED_OUT", ref.key() + " opted out with gpuaas.io/reclaim", clock.instant())));
            state.markReported(sampleMillis, WorkloadWindows.NEVER);
            if (state.noticed()) {
                // Opted out after its notice: the announced reclaim will not come, so the annotation goes.
                out.add(withdraw(ref, windowId(ref, state.noticedSinceMillis())));
            }
            return out;
        }
        String windowId = windowId(ref, v.windowStart());
        out.add(new Decision.Intent(new ReclaimIntent.ReclaimRequested(
                ref,
                windowId,
                tenant,
                groups(state),
                v.devices(),
                v.idleMillis() / 1000,
                dryRun,
                Instant.ofEpochMilli(sampleMillis),
                clock.instant())));
        if (dryRun) {
            // Nothing will be written: no resume will follow, so the episode ends here as a report.
            state.markReported(sampleMillis, WorkloadWindows.NEVER);
        } else {
            state.markReclaimed(windowId, sampleMillis);
        }
        return out;
    }

    /**
     * The ReclaimPending notice of a window that began at {@code sinceMillis}, if this run would ever write a
     * reclaim (direct mode, not dry-run, not opted out: a notice says what will happen), and records it as sent.
     *
     * @param closing the window closes idle at this very sample: the reclaim is decided now, not at 100 %
     */
    public Optional<Decision> pending(
            WorkloadRef ref,
            WorkloadInfo info,
            WorkloadWindows state,
            long sinceMillis,
            long nowMillis,
            boolean closing) {
        if (!notifies(info)) {
            return Optional.empty();
        }
        state.markNoticed(sinceMillis);
        Instant since = Instant.ofEpochMilli(sinceMillis);
        Instant reclaimAt = closing
                ? Instant.ofEpochMilli(nowMillis)
                : since.plus(info.policy().window());
        String tenant = info.tenant() != null ? info.tenant() : ref.namespace();
        metrics.noticed(ref);
        return Optional.of(new Decision.Notify(new Notice.ReclaimPending(
                Notice.reclaimPendingId(ref, since),
                tenant,
                ref.namespace(),
                ref,
                windowId(ref, sinceMillis),
                since,
                reclaimAt,
                info.policy().window(),
                Instant.ofEpochMilli(nowMillis),
                Notice.ReclaimPending.keepPath(ref))));
    }

    /** Whether a workload under this policy is ever reclaimed by this reclaimer, so worth a ReclaimPending notice. */
    public boolean notifies(WorkloadInfo info) {
        return mode == Mode.DIRECT && !dryRun && info.policy().reclaimEnabled();
    }

    /** The workload of a requested reclaim was busy again: the applier must not apply it if it has not yet. */
    public Decision withdraw(WorkloadRef ref, String windowId) {
        return new Decision.Intent(new ReclaimIntent.ReclaimWithdrawn(ref, windowId, clock.instant()));
    }

    /** {@code namespace/kind/name@<window start>}: the same samples always give the same id. */
    public static String windowId(WorkloadRef ref, long windowStartMillis) {
        return ref.key() + "@" + Instant.ofEpochMilli(windowStartMillis);
    }

    private static List<String> groups(WorkloadWindows state) {
        Set<String> groups = new TreeSet<>();
        for (DeviceState d : state.devices().values()) {
            groups.add(d.group());
        }
        return List.copyOf(groups);
    }
}
