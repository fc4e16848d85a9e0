package io.gpuaas.reclaim.model;

import io.gpuaas.events.reclaim.WorkloadRef;
import java.util.Optional;

/** Current knowledge of workload objects (informer caches in production). */
public interface WorkloadLookup {

    /** Empty when the object does not exist (any more): such a workload is never acted on. */
    Optional<WorkloadInfo> find(WorkloadRef workload);
}
