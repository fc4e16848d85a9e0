package io.gpuaas.metrics.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.events.pool.PoolNode;
import io.gpuaas.events.quota.QueueState;
import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.metrics.projection.BookedUnits;
import io.gpuaas.metrics.projection.QueueDepth;
import io.gpuaas.metrics.projection.ReclaimState;
import io.gpuaas.metrics.projection.TenantDirectory;
import io.gpuaas.metrics.projection.TenantUsage;
import io.gpuaas.metrics.scrape.ScrapeHealth;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MetricsGatewayMetricsTest {

    private static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");
    private final TenantDirectory tenants = new TenantDirectory(Map.of());
    private final QueueDepth queues = new QueueDepth(tenants);
    private final TenantUsage usage = new TenantUsage(tenants, 0.05, Duration.ofSeconds(30), Duration.ofSeconds(30));
    private final ReclaimState reclaims = new ReclaimState();
    private final MetricsGatewayMetrics metrics = new MetricsGatewayMetrics(
            queues,
            usage,
            new BookedUnits(),
            reclaims,
            new ScrapeHealth(),
            new PublishCounters(),
            Clock.fixed(NOW, ZoneOffset.UTC));

    @Test
    void shouldSeparateClusterQueueTotalsFromLocalQueuesWhenBothAreKnown() {
        queues.apply(
                "cq/gpuaas-team-a",
                new QueueState(
                        QueueState.Kind.CLUSTER_QUEUE,
                        "gpuaas-team-a",
                        null,
                        null,
                        "gpuaas-pool",
                        "team-a",
                        Map.of(),
                        Map.of(),
                        Map.of(),
                        5,
                        2,
                        3,
                        Map.of("nvidia.com/gpu", BigDecimal.valueOf(9)),
                        NOW));
        queues.apply(
                "lq/team-a/gpuaas",
                new QueueState(
                        QueueState.Kind.LOCAL_QUEUE,
                        "gpuaas-team-a",
                        "team-a",
                        "gpuaas",
                        "gpuaas-pool",
                        "team-a",
                        Map.of(),
                        Map.of(),
                        Map.of(),
                        4,
                        0,
                        1,
                        Map.of("nvidia.com/gpu", BigDecimal.valueOf(8)),
                        NOW));

        String text = render();

        assertThat(text)
                .contains(
                        "gpuaas_cluster_queue_pending_workloads{cluster_queue=\"gpuaas-team-a\"} 7.0",
                        "gpuaas_cluster_queue_pending_gpus{cluster_queue=\"gpuaas-team-a\",resource=\"nvidia.com/gpu\"} 9.0",
                        "gpuaas_queue_pending_workloads{cluster_queue=\"gpuaas-team-a\",local_queue=\"gpuaas\",namespace=\"team-a\"} 4.0");
    }

    @Test
    void shouldLabelTenantSeriesByTenantOnlyWhenPodsHoldGpus() {
        queues.apply(
                "lq/team-a/gpuaas",
                new QueueState(
                        QueueState.Kind.LOCAL_QUEUE,
                        "gpuaas-team-a",
                        "team-a",
                        "gpuaas",
                        null,
                        "team-a",
                        Map.of(),
                        Map.of(),
                        Map.of(),
                        0,
                        0,
                        0,
                        Map.of(),
                        NOW));
        usage.apply(new GpuScrape(
                NOW.minusSeconds(1),
                "n1",
                "10.0.0.1:9400",
                List.of(new GpuScrape.Device(
                        "GPU-1",
                        0,
                        "H200",
                        null,
                        null,
                        "dcgm-exporter-secret",
                        "team-a",
                        "secret-pod-name",
                        "main",
                        0.3,
                        "GR_ENGINE_ACTIVE",
                        1.0,
                        1.0,
                        1.0))));

        String text = render();

        assertThat(text)
                .contains(
                        "gpuaas_tenant_gpu_allocated{tenant=\"team-a\"} 1.0",
                        "gpuaas_tenant_gpu_utilization_ratio{tenant=\"team-a\"} 0.3");
        assertThat(text).doesNotContain("secret-pod-name", "GPU-1", "dcgm-exporter-secret");
    }

    @Test
    void shouldEmitOneIdlenessSeriesPerWorkloadWhenTheReclaimerSpeaks() {
        WorkloadRef ref = new WorkloadRef("team-b", "RayCluster", "sweep");
        reclaims.apply(new ReclaimEvent.IdleDetected(ref, "team-b", 1, NOW, 900, 0.05, 0.0, 1.0, "keda", NOW));

        assertThat(render())
                .contains(
                        "gpuaas_workload_idle{kind=\"RayCluster\",name=\"sweep\",namespace=\"team-b\"} 1.0",
                        "gpuaas_reclaimed_workers_total 0.0");
    }

    @Test
    void shouldShowAFlexiblePoolsBookedUnitsInGpusWhenItsBookingsHoldSlicesOfSeveralSizes() {
        Pool flex = Pool.flexible("h200-flex", "h200-flex", "NVIDIA H200", null, List.of(new PoolNode("n1", 2)));
        BookedUnits booked = new BookedUnits(new PoolCatalog(List.of(flex)));
        booked.apply("b1", flexBooking("b1", "nvidia.com/mig-3g.71gb", 1));
        booked.apply("b2", flexBooking("b2", "nvidia.com/mig-2g.35gb", 3));
        MetricsGatewayMetrics withFlex = new MetricsGatewayMetrics(
                queues,
                usage,
                booked,
                reclaims,
                new ScrapeHealth(),
                new PublishCounters(),
                Clock.fixed(NOW, ZoneOffset.UTC));
        Exposition out = new Exposition(false, 64);
        withFlex.writeTo(out);

        // 1 × 1/2 + 3 × 1/3 = 1.5 GPUs
        assertThat(new String(out.toBytes(), StandardCharsets.UTF_8))
                .contains("gpuaas_tenant_booked_units{pool=\"h200-flex\",tenant=\"team-a\"} 1.5\n");
    }

    private static Booking flexBooking(String id, String resource, int quantity) {
        return new Booking(
                id,
                "team-a",
                "team-a",
                "h200-flex",
                "h200-flex",
                resource,
                quantity,
                NOW.minusSeconds(60),
                NOW.plusSeconds(3600),
                null,
                BookingState.ACTIVE,
                "alice",
                NOW,
                NOW,
                1);
    }

    private String render() {
        Exposition out = new Exposition(false, 64);
        metrics.writeTo(out);
        return new String(out.toBytes(), StandardCharsets.UTF_8);
    }
}
