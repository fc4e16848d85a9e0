package io.gpuaas.bench.metrics;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.events.quota.QueueState;
import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.metrics.projection.BookedUnits;
import io.gpuaas.metrics.projection.QueueDepth;
import io.gpuaas.metrics.projection.ReclaimState;
import io.gpuaas.metrics.projection.TenantUsage;
import io.gpuaas.metrics.scrape.ScrapeHealth;
import io.gpuaas.metrics.scrape.ScrapeTarget;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Fills the gateway's projections as a cluster at the design scale would: every tenant with a ClusterQueue,
 * two LocalQueues (namespaces {@code t<i>} and {@code t<i>-dev}), two active bookings, GPUs spread evenly and
 * sampled twice, and a few workloads the reclaimer reported on; one exporter per 8 GPUs.
 */
final class ScaleFleet {

    private ScaleFleet() {}

    static void populate(
            int gpus,
            int tenants,
            int workloadsPerTenant,
            Instant now,
            QueueDepth queues,
            TenantUsage usage,
            BookedUnits bookings,
            ReclaimState reclaims,
            ScrapeHealth health) {
        for (int t = 0; t < tenants; t++) {
            String tenant = "tenant-" + t;
            queues.apply(
                    "cq/gpuaas-" + tenant,
                    new QueueState(
                            QueueState.Kind.CLUSTER_QUEUE,
                            "gpuaas-" + tenant,
                            null,
                            null,
                            "gpuaas-pool",
                            tenant,
                            Map.of(),
                            Map.of(),
                            Map.of(),
                            t % 7,
                            t % 3,
                            t % 5,
                            demand(t),
                            now));
            for (String ns : new String[] {"t" + t, "t" + t + "-dev"}) {
                queues.apply(
                        "lq/" + ns + "/gpuaas",
                        new QueueState(
                                QueueState.Kind.LOCAL_QUEUE,
                                "gpuaas-" + tenant,
                                ns,
                                "gpuaas",
                                "gpuaas-pool",
                                tenant,
                                Map.of(),
                                Map.of(),
                                Map.of(),
                                t % 4,
                                0,
                                t % 3,
                                demand(t),
                                now));
            }
            bookings.apply(tenant + "-b1", booking(tenant + "-b1", tenant, "h200", 2, now));
            bookings.apply(tenant + "-b2", booking(tenant + "-b2", tenant, "h200-mig-1g.18gb", 7, now));
            for (int w = 0; w < workloadsPerTenant; w++) {
                WorkloadRef ref = new WorkloadRef("t" + t, w % 2 == 0 ? "RayCluster" : "InferenceService", "wl-" + w);
                reclaims.apply(new ReclaimEvent.IdleDetected(
                        ref, tenant, 1, now.minusSeconds(900), 900, 0.05, 0.0, 1.0, "keda", now));
            }
        }
        // One scrape per node of eight GPUs, twice a second apart, as the sample feed would deliver them.
        for (int s = 1; s >= 0; s--) {
            for (int node = 0; node < gpus / 8; node++) {
                List<GpuScrape.Device> devices = new ArrayList<>(8);
                for (int g = node * 8; g < node * 8 + 8; g++) {
                    devices.add(new GpuScrape.Device(
                            "GPU-" + g,
                            g % 8,
                            "NVIDIA H200",
                            null,
                            null,
                            "dcgm-exporter-" + node,
                            "t" + (g % tenants),
                            "pod-" + g,
                            "main",
                            (g % 10) / 10.0,
                            "GR_ENGINE_ACTIVE",
                            1000.0,
                            80000.0,
                            300.0));
                }
                usage.apply(new GpuScrape(now.minusSeconds(s), "gpu-node-" + node, null, devices));
            }
        }
        for (int n = 0; n < gpus / 8; n++) {
            health.succeeded(
                    ScrapeTarget.configured("http://10.0." + n / 250 + "." + n % 250 + ":9400/metrics"), 0.01, 8, 0);
        }
    }

    private static Map<String, BigDecimal> demand(int t) {
        return Map.of(
                "nvidia.com/gpu",
                BigDecimal.valueOf(t % 9),
                "nvidia.com/mig-1g.18gb",
                BigDecimal.valueOf(t % 4),
                "cpu",
                BigDecimal.TEN);
    }

    private static Booking booking(String id, String tenant, String pool, int units, Instant now) {
        return new Booking(
                id,
                tenant,
                "t" + tenant.substring(7),
                pool,
                pool,
                "nvidia.com/gpu",
                units,
                now.minusSeconds(3600),
                now.plusSeconds(3600),
                null,
                BookingState.ACTIVE,
                "bench",
                now,
                now,
                1);
    }
}
