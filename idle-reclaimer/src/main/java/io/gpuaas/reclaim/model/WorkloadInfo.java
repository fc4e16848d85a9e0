package io.gpuaas.reclaim.model;

import io.gpuaas.events.reclaim.WorkloadRef;

/**
 * What the reclaimer knows about one workload object from the API server.
 *
 * @param tenant          from the namespace label {@code gpuaas.io/tenant}, null when unlabelled
 * @param policy          the policy after namespace and workload annotation overrides
 * @param resumedAtMillis last resume ({@code gpuaas.io/resumed-at}), 0 when never
 */
public record WorkloadInfo(WorkloadRef workload, String tenant, IdlePolicy policy, long resumedAtMillis) {}
