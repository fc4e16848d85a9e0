package io.gpuaas.metrics;

/**
 * When each {@code ServiceComponent} of the gateway starts (lowest first) and stops (highest first, by the kit's
 * {@code ServiceLifecycle}; {@link MetricsGateway} builds them, each component carries its order). Inputs start before what uses them, and stop after: tenant labels before the first
 * sample is charged, the projections before the rollups that read them, the scheduler before discovery adds targets
 * to it; on shutdown discovery ends first, then the leader steps down (the last scrape is flushed, the partial rollup
 * window published) and releases the Lease, while the projections still run.
 */
public final class StartOrder {

    /** {@code tenant-namespaces}: Namespace labels, read by the projections to charge tenants. */
    public static final int TENANT_NAMESPACES = 0;
    /** {@code state-feed} and {@code sample-feed}: the topic replicas behind /metrics and KEDA. */
    public static final int PROJECTIONS = 10;
    /** {@code tenant-rollups}: one-minute rollups of what the projections charged. */
    public static final int ROLLUPS = 20;
    /** {@code scrape-scheduler}: one loop per exporter, publishing GpuScrapes. */
    public static final int SCRAPES = 30;
    /**
     * {@code gateway-leadership}: the Lease whose holder runs the rollups and the scrapes; after both, so they are
     * started before they lead and step down before they stop.
     */
    public static final int LEADERSHIP = 35;
    /** {@code exporter-discovery}: dcgm-exporter pods, handed to the scheduler as targets. */
    public static final int DISCOVERY = 40;

    private StartOrder() {}
}
