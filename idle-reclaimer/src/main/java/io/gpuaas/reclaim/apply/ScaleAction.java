package io.gpuaas.reclaim.apply;

import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.reclaim.k8s.ScaleOutcome;
import java.util.Set;

/** The write side of a reclaim ({@link io.gpuaas.reclaim.k8s.WorkerScaler#reclaim} in production). */
@FunctionalInterface
public interface ScaleAction {

    ScaleOutcome reclaim(WorkloadRef workload, Set<String> gpuGroups, String actionId, boolean dryRun);
}
