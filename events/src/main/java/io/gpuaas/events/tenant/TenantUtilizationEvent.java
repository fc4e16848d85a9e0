package io.gpuaas.events.tenant;

/** The values of {@code gpuaas.tenant-utilization}. */
public sealed interface TenantUtilizationEvent permits TenantUtilization {}
