package io.gpuaas.metrics.metrics;

import io.gpuaas.events.quota.QueueState;
import io.gpuaas.metrics.projection.BookedUnits;
import io.gpuaas.metrics.projection.QueueDepth;
import io.gpuaas.metrics.projection.ReclaimState;
import io.gpuaas.metrics.projection.TenantUsage;
import io.gpuaas.metrics.scrape.ScrapeHealth;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every metric metrics-gateway defines, computed from the projections at scrape time (so a new QueueState or
 * reclaim event is visible on the very next scrape) and written by {@link Exposition}. Labels are bounded by
 * queues, tenants, pools and scrape targets; never by GPU or pod, except {@code gpuaas_workload_idle}, whose
 * per-workload series is the KEDA signal. Label names are listed in sorted order, as the text formats prefer.
 */
public final class MetricsGatewayMetrics {

    private final QueueDepth queues;
    private final TenantUsage usage;
    private final BookedUnits bookings;
    private final ReclaimState reclaims;
    private final ScrapeHealth scrapes;
    private final PublishCounters publishing;
    private final Clock clock;

    public MetricsGatewayMetrics(
            QueueDepth queues,
            TenantUsage usage,
            BookedUnits bookings,
            ReclaimState reclaims,
            ScrapeHealth scrapes,
            PublishCounters publishing,
            Clock clock) {
        this.queues = queues;
        this.usage = usage;
        this.bookings = bookings;
        this.reclaims = reclaims;
        this.scrapes = scrapes;
        this.publishing = publishing;
        this.clock = clock;
    }

    /** Writes every family to {@code out}. */
    public void writeTo(Exposition out) {
        Instant now = clock.instant();
        Collection<QueueState> all = queues.all();
        localQueues(out, all);
        clusterQueues(out, all);
        tenants(out, now);
        reclaims(out, now);
        scrapes(out);
    }

    private static void localQueues(Exposition out, Collection<QueueState> all) {
        String[] labels = {"cluster_queue", "local_queue", "namespace"};
        Exposition.Family pending = out.gauge(
                "gpuaas_queue_pending_workloads",
                "Workloads waiting in a LocalQueue (active plus inadmissible)",
                labels);
        all.stream()
                .filter(QueueStateKinds::local)
                .forEach(q ->
                        pending.add(q.pendingWorkloads(), nonNull(q.clusterQueue()), q.localQueue(), q.namespace()));
        Exposition.Family admitted =
                out.gauge("gpuaas_queue_admitted_workloads", "Admitted, unfinished workloads of a LocalQueue", labels);
        all.stream()
                .filter(QueueStateKinds::local)
                .forEach(q ->
                        admitted.add(q.admittedWorkloads(), nonNull(q.clusterQueue()), q.localQueue(), q.namespace()));
        Exposition.Family gpus = out.gauge(
                "gpuaas_queue_pending_gpus",
                "GPU units requested by pending workloads of a LocalQueue",
                "cluster_queue",
                "local_queue",
                "namespace",
                "resource");
        all.stream().filter(QueueStateKinds::local).forEach(q -> gpuDemand(q.pendingDemand())
                .forEach((r, amount) -> gpus.add(amount, nonNull(q.clusterQueue()), q.localQueue(), q.namespace(), r)));
    }

    private static void clusterQueues(Exposition out, Collection<QueueState> all) {
        Exposition.Family pending = out.gauge(
                "gpuaas_cluster_queue_pending_workloads", "Workloads waiting in a ClusterQueue", "cluster_queue");
        all.stream()
                .filter(q -> !QueueStateKinds.local(q))
                .forEach(q -> pending.add(q.pendingWorkloads(), q.clusterQueue()));
        Exposition.Family admitted = out.gauge(
                "gpuaas_cluster_queue_admitted_workloads", "Admitted workloads of a ClusterQueue", "cluster_queue");
        all.stream()
                .filter(q -> !QueueStateKinds.local(q))
                .forEach(q -> admitted.add(q.admittedWorkloads(), q.clusterQueue()));
        Exposition.Family gpus = out.gauge(
                "gpuaas_cluster_queue_pending_gpus",
                "GPU units requested by pending workloads of a ClusterQueue",
                "cluster_queue",
                "resource");
        all.stream().filter(q -> !QueueStateKinds.local(q)).forEach(q -> gpuDemand(q.pendingDemand())
                .forEach((r, amount) -> gpus.add(amount, q.clusterQueue(), r)));
    }

    /** GPU resources only: nvidia.com/gpu, the nvidia.com/mig-* slices, and other vendors' resources ending in /gpu. */
    public static Map<String, Double> gpuDemand(Map<String, BigDecimal> demand) {
        Map<String, Double> gpus = new TreeMap<>();
        if (demand != null) {
            demand.forEach((resource, amount) -> {
                if (resource.startsWith("nvidia.com/") || resource.endsWith("/gpu")) {
                    gpus.put(resource, amount.doubleValue());
                }
            });
        }
        return gpus;
    }

    private void tenants(Exposition out, Instant now) {
        Map<String, TenantUsage.TenantGauges> gauges = usage.gauges(now);
        Exposition.Family allocated = out.gauge(
                "gpuaas_tenant_gpu_allocated",
                "GPU devices (GPUs or MIG instances) attributed to the tenant's pods",
                "tenant");
        gauges.forEach((tenant, g) -> allocated.add(g.allocated(), tenant));
        Exposition.Family utilization = out.gauge(
                "gpuaas_tenant_gpu_utilization_ratio",
                "Mean utilization ratio of the tenant's attributed devices that report one",
                "tenant");
        gauges.forEach((tenant, g) -> {
            if (!Double.isNaN(g.meanUtilization())) {
                utilization.add(g.meanUtilization(), tenant);
            }
        });
        Exposition.Family seconds = out.counter(
                "gpuaas_tenant_gpu_seconds",
                "Device-seconds held by the tenant, busy (above the idle threshold) or idle",
                "state",
                "tenant");
        gauges.forEach(
                (tenant, g) -> seconds.add(g.busySeconds(), "busy", tenant).add(g.idleSeconds(), "idle", tenant));
        Exposition.Family booked = out.gauge(
                "gpuaas_tenant_booked_units",
                "Units of a pool booked by the tenant and active now (a flexible pool: GPUs, each slice weighed by its"
                        + " share of a GPU)",
                "pool",
                "tenant");
        bookings.bookedAt(now)
                .forEach((tenant, pools) -> pools.forEach((pool, units) -> booked.add(units, pool, tenant)));
    }

    private void reclaims(Exposition out, Instant now) {
        Exposition.Family idle = out.gauge(
                "gpuaas_workload_idle",
                "1 while the idle-reclaimer holds the workload idle, 0 when busy, resumed or left running",
                "kind",
                "name",
                "namespace");
        reclaims.workloads()
                .forEach((ref, state) -> idle.add(state.idle() ? 1 : 0, ref.kind(), ref.name(), ref.namespace()));
        out.counter("gpuaas_reclaimed_workers", "Workers scaled to zero by the idle-reclaimer")
                .add(reclaims.reclaimedWorkers());
        out.counter("gpuaas_reclaim_gpu_seconds_saved", "GPU-seconds freed while reclaimed workloads stayed at zero")
                .add(reclaims.gpuSecondsSaved(now));
        out.counter(
                        "gpuaas_reclaim_kept_gpu_seconds",
                        "GPU-seconds of idle time teams kept from reclaim (devices x seconds granted)")
                .add(reclaims.keptGpuHours() * 3600.0);
    }

    private void scrapes(Exposition out) {
        Map<String, ScrapeHealth.TargetHealth> targets = scrapes.targets();
        Exposition.Family up =
                out.gauge("gpuaas_scrape_up", "1 if the last scrape of the dcgm-exporter succeeded", "target");
        targets.forEach((target, h) -> up.add(h.up() ? 1 : 0, target));
        Exposition.Family duration = out.gauge(
                "gpuaas_scrape_duration_seconds", "Duration of the last scrape of the dcgm-exporter", "target");
        targets.forEach((target, h) -> duration.add(h.durationSeconds(), target));
        Exposition.Family bad = out.counter("gpuaas_scrape_bad_lines", "Malformed exporter lines skipped", "target");
        targets.forEach((target, h) -> bad.add(h.badLinesTotal(), target));
        Exposition.Family failures =
                out.counter("gpuaas_scrape_failures", "Failed scrapes of the dcgm-exporter", "target");
        targets.forEach((target, h) -> failures.add(h.failuresTotal(), target));
        out.counter("gpuaas_gpu_samples_published", "Device samples (in GpuScrapes) acknowledged by Kafka")
                .add(publishing.acknowledgedCount());
        out.counter("gpuaas_gpu_samples_publish_errors", "Device samples (in GpuScrapes) Kafka failed to take")
                .add(publishing.failedCount());
    }

    private static String nonNull(String s) {
        return s == null ? "" : s;
    }

    /** Which queue states are LocalQueues. */
    private static final class QueueStateKinds {
        private QueueStateKinds() {}

        static boolean local(QueueState q) {
            return q.kind() == QueueState.Kind.LOCAL_QUEUE;
        }
    }
}
