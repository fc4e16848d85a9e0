package io.gpuaas.events.tenant;

import java.time.Instant;
import java.util.Map;

/**
 * One tenant's GPU use over one rollup window; the values of {@code gpuaas.tenant-utilization}, keyed by tenant.
 *
 * @param tenant              the tenant (the record key)
 * @param windowStart         inclusive start of the rollup window
 * @param windowEnd           exclusive end of the rollup window
 * @param allocatedGpuSeconds device-seconds attributed to the tenant's pods
 * @param busyGpuSeconds      device-seconds above the idle threshold
 * @param idleGpuSeconds      device-seconds at or under the idle threshold
 * @param meanUtilization     mean utilization ratio over attributed devices
 * @param bookedUnits         pool id to units booked and active during the window
 */
public record TenantUtilization(
        String tenant,
        Instant windowStart,
        Instant windowEnd,
        double allocatedGpuSeconds,
        double busyGpuSeconds,
        double idleGpuSeconds,
        double meanUtilization,
        Map<String, Integer> bookedUnits)
        implements TenantUtilizationEvent {}
