package io.gpuaas.metrics.projection;

import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.events.reclaim.WorkloadRef;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What the idle-reclaimer did, from {@code gpuaas.reclaim-events}: per workload whether it is idle (the KEDA
 * signal), how many workers were reclaimed, and the GPU-seconds saved while workloads stayed scaled to zero.
 */
public final class ReclaimState {

    /** A workload's idleness as KEDA and /metrics see it. */
    public record Idleness(boolean idle, Instant since) {}

    private record Saving(int gpus, Instant since) {}

    private final Map<WorkloadRef, Idleness> idleness = new HashMap<>();
    private final Map<WorkloadRef, Saving> open = new HashMap<>();
    private long reclaimedWorkers;
    private double closedSavedSeconds;
    private double keptGpuHours;

    public synchronized void apply(ReclaimEvent event) {
        WorkloadRef ref = event.workload();
        switch (event) {
            case ReclaimEvent.IdleDetected e -> idleness.put(ref, new Idleness(true, e.idleSince()));
            case ReclaimEvent.Reclaimed e -> reclaimed(e);
            case ReclaimEvent.Resumed e -> {
                idleness.put(ref, new Idleness(false, e.time()));
                closeSaving(ref, e.time());
            }
            // Skipped means "leave it running" (opted out, non-elastic, warm-up): KEDA must not scale it down.
            case ReclaimEvent.ReclaimSkipped e -> idleness.put(ref, new Idleness(false, e.time()));
            case ReclaimEvent.ReclaimFailed e -> idleness.putIfAbsent(ref, new Idleness(false, e.time()));
            // Kept: still idle (the window keeps counting), but not reclaimed before keptUntil.
            case ReclaimEvent.ReclaimKept e -> keptGpuHours += e.devices() * (double) e.hours();
        }
    }

    private void reclaimed(ReclaimEvent.Reclaimed e) {
        Idleness before = idleness.get(e.workload());
        idleness.put(e.workload(), new Idleness(true, before != null && before.idle() ? before.since() : e.time()));
        if (e.dryRun()) {
            return;
        }
        for (ReclaimEvent.ScaledGroup group : e.groups()) {
            int previous = group.previousReplicas() == null ? 0 : group.previousReplicas();
            reclaimedWorkers += Math.max(0, previous - group.replicas());
        }
        closeSaving(e.workload(), e.time());
        open.put(e.workload(), new Saving(e.gpusFreed(), e.time()));
    }

    private void closeSaving(WorkloadRef ref, Instant at) {
        Saving saving = open.remove(ref);
        if (saving != null && at.isAfter(saving.since())) {
            closedSavedSeconds +=
                    saving.gpus() * Duration.between(saving.since(), at).toMillis() / 1000.0;
        }
    }

    public synchronized Optional<Idleness> workload(WorkloadRef ref) {
        return Optional.ofNullable(idleness.get(ref));
    }

    /** Every workload the reclaimer has spoken about, sorted for stable output. */
    public synchronized Map<WorkloadRef, Idleness> workloads() {
        Map<WorkloadRef, Idleness> sorted = new TreeMap<>(java.util.Comparator.comparing(WorkloadRef::key));
        sorted.putAll(idleness);
        return sorted;
    }

    /**
     * GPU-hours of idle time teams chose to keep ({@code ReclaimKept}: devices × hours granted), the upper bound of
     * what the keeps held back from reclaim: a workload busy again during its keep used part of it.
     */
    public synchronized double keptGpuHours() {
        return keptGpuHours;
    }

    public synchronized long reclaimedWorkers() {
        return reclaimedWorkers;
    }

    /** GPU-seconds saved so far, including workloads still scaled to zero (grows with {@code now}). */
    public synchronized double gpuSecondsSaved(Instant now) {
        double running = 0;
        for (Saving saving : open.values()) {
            if (now.isAfter(saving.since())) {
                running += saving.gpus() * Duration.between(saving.since(), now).toMillis() / 1000.0;
            }
        }
        return closedSavedSeconds + running;
    }
}
