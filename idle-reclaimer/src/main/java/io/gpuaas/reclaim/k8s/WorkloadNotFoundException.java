package io.gpuaas.reclaim.k8s;

import io.gpuaas.events.reclaim.WorkloadRef;

/** The workload object does not exist. */
public final class WorkloadNotFoundException extends RuntimeException {

    private final transient WorkloadRef workload;

    public WorkloadNotFoundException(WorkloadRef workload) {
        super(workload.key() + " does not exist");
        this.workload = workload;
    }

    public WorkloadRef workload() {
        return workload;
    }
}
