package io.gpuaas.metrics;

/**
 * When each {@code ServiceComponent} of the gateway starts (lowest first) and stops (highest first, by the kit's
 * {@code ServiceLifecycle}). Inputs start before what uses them, and stop after: tenant labels before the first
 * sample is charged, the projections before the rollups that read them, the scheduler before discovery adds targets
 * to it; on shutdown discovery and scraping end first, so the last scrape is flushed and the partial rollup window
 * published while the projections still run.
 */
public final class StartOrder {

    /** {@code tenant-namespaces}: Namespace labels, read by the projections to charge tenants. */
    public static final int TENANT_NAMESPACES = 0;
    /** {@code state-feed} and {@code sample-feed}: the topic replicas behind /metrics and KEDA. */
    public static final int PROJECTIONS = 10;
    /** {@code tenant-rollups}: one-minute rollups of what the projections charged. */
    public static final int ROLLUPS = 20;
    /** {@code scrape-scheduler}: one loop per exporter, publishing GpuSamples. */
    public static final int SCRAPES = 30;
    /** {@code exporter-discovery}: dcgm-exporter pods, handed to the scheduler as targets. */
    public static final int DISCOVERY = 40;

    private StartOrder() {
    }
}
