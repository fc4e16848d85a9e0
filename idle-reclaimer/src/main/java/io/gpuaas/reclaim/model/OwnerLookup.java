package io.gpuaas.reclaim.model;

import io.gpuaas.events.reclaim.WorkloadRef;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Maps an attributed pod to the workload owning its GPUs (a pod informer in production). */
public interface OwnerLookup {

    Optional<Owner> ownerOf(String namespace, String pod);

    /** Pods currently known for one worker group of a workload (for {@code scaleStrategy.workersToDelete}). */
    List<String> podsOf(WorkloadRef workload, String group);

    /** Every current pod of the workload with the number of GPU devices it asks for. */
    Map<String, Integer> gpusPerPod(WorkloadRef workload);
}
