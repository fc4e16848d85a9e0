package io.gpuaas.metrics.projection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.gpuaas.events.gpu.GpuActivity;
import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.events.tenant.TenantUtilization;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TenantUsageTest {

    private static final Instant T0 = Instant.parse("2026-11-22T12:00:00Z");
    private final TenantDirectory tenants = new TenantDirectory(Map.of("team-a", "team-a", "team-b", "team-b"));
    private final TenantUsage usage = new TenantUsage(tenants, 0.05, Duration.ofSeconds(30), Duration.ofSeconds(10));

    @Test
    void shouldChargeBusyAndIdleSecondsToTheTenantHoldingTheDeviceWhenSamplesArrive() {
        usage.apply(sample("gpu-1", "team-a", 0, 0.9));
        usage.apply(sample("gpu-1", "team-a", 5, 0.01));
        usage.apply(sample("gpu-1", "team-a", 8, 0.01));

        TenantUsage.TenantGauges a = usage.gauges(T0.plusSeconds(8)).get("team-a");
        assertThat(a.busySeconds()).isEqualTo(5.0);
        assertThat(a.idleSeconds()).isEqualTo(3.0);
        assertThat(a.allocated()).isEqualTo(1);
        assertThat(a.meanUtilization()).isEqualTo(0.01);
    }

    @Test
    void shouldCountSmallKernelsAndVideoDecodeBusyWhenTheDefaultThresholdJudges() {
        TenantUsage byDefault = new TenantUsage(
                tenants, GpuActivity.DEFAULT_IDLE_THRESHOLD, Duration.ofSeconds(30), Duration.ofSeconds(10));
        byDefault.apply(sample("gpu-1", "team-a", 0, 0.044));
        byDefault.apply(sample("gpu-1", "team-a", 5, 0.0002));
        byDefault.apply(withDecoder(sample("gpu-1", "team-a", 8, 0.0002), 46.0));
        byDefault.apply(withDecoder(sample("gpu-1", "team-a", 10, 0.0002), 0.0));
        byDefault.apply(sample("gpu-1", "team-a", 13, 0.0003));

        TenantUsage.TenantGauges a = byDefault.gauges(T0.plusSeconds(13)).get("team-a");
        // 0..5 small kernels busy, 5..8 empty idle, 8..10 decoding busy, 10..13 idle.
        assertThat(a.busySeconds()).isEqualTo(7.0);
        assertThat(a.idleSeconds()).isEqualTo(6.0);
    }

    private static GpuScrape withDecoder(GpuScrape scrape, double decoderPercent) {
        return new GpuScrape(
                scrape.time(),
                scrape.node(),
                scrape.target(),
                List.of(scrape.devices().getFirst().withMedia(decoderPercent, 0.0)));
    }

    @Test
    void shouldNeverCountAMissingReadingAsIdleWhenTheExporterReportsNoUtilization() {
        usage.apply(sample("gpu-1", "team-a", 0, null));
        usage.apply(sample("gpu-1", "team-a", 5, null));

        TenantUsage.TenantGauges a = usage.gauges(T0.plusSeconds(5)).get("team-a");
        assertThat(a.idleSeconds()).isZero();
        assertThat(a.busySeconds()).isZero();
        assertThat(a.allocated()).isEqualTo(1);
        assertThat(a.meanUtilization()).isNaN();
    }

    @Test
    void shouldCapTheChargedGapWhenTheExporterWasSilentForLong() {
        usage.apply(sample("gpu-1", "team-a", 0, 0.0));
        usage.apply(sample("gpu-1", "team-a", 600, 0.0));

        assertThat(usage.gauges(T0.plusSeconds(600)).get("team-a").idleSeconds())
                .isEqualTo(10.0);
    }

    @Test
    void shouldStopCountingTheDeviceAsAllocatedWhenItsSamplesGoStale() {
        usage.apply(sample("gpu-1", "team-a", 0, 0.5));

        assertThat(usage.gauges(T0.plusSeconds(31)).get("team-a").allocated()).isZero();
    }

    @Test
    void shouldIgnoreDevicesOfUnknownNamespacesWhenNoTenantOwnsThem() {
        usage.apply(sample("gpu-1", "kube-system", 0, 0.5));
        usage.apply(sample("gpu-1", "kube-system", 5, 0.5));

        assertThat(usage.gauges(T0.plusSeconds(5))).isEmpty();
    }

    @Test
    void shouldFollowTheDeviceToItsNewTenantWhenThePodChanges() {
        usage.apply(sample("gpu-1", "team-a", 0, 0.9));
        usage.apply(sample("gpu-1", "team-b", 4, 0.9));
        usage.apply(sample("gpu-1", "team-b", 6, 0.9));

        Map<String, TenantUsage.TenantGauges> gauges = usage.gauges(T0.plusSeconds(6));
        assertThat(gauges.get("team-a").busySeconds()).isEqualTo(4.0);
        assertThat(gauges.get("team-a").allocated()).isZero();
        assertThat(gauges.get("team-b").busySeconds()).isEqualTo(2.0);
        assertThat(gauges.get("team-b").allocated()).isEqualTo(1);
    }

    @Test
    void shouldRollUpTimeWeightedFiguresAndBookedOnlyTenantsWhenTheWindowCloses() {
        usage.apply(sample("gpu-1", "team-a", 0, 1.0));
        usage.apply(sample("gpu-1", "team-a", 6, 0.0));
        usage.apply(sample("gpu-1", "team-a", 8, 0.0));

        List<TenantUtilization> rollups = usage.rollup(
                T0, T0.plusSeconds(60), Map.of("team-a", Map.of("h200", 2), "team-c", Map.of("h200-mig-1g.18gb", 7)));

        assertThat(rollups).extracting(TenantUtilization::tenant).containsExactly("team-a", "team-c");
        TenantUtilization a = rollups.getFirst();
        assertThat(a.allocatedGpuSeconds()).isEqualTo(8.0);
        assertThat(a.busyGpuSeconds()).isEqualTo(6.0);
        assertThat(a.idleGpuSeconds()).isEqualTo(2.0);
        assertThat(a.meanUtilization()).isCloseTo(0.75, within(1e-9));
        assertThat(a.bookedUnits()).containsEntry("h200", 2);
        assertThat(rollups.get(1).allocatedGpuSeconds()).isZero();
        assertThat(usage.rollup(T0.plusSeconds(60), T0.plusSeconds(120), Map.of()))
                .isEmpty();
    }

    private static GpuScrape sample(String uuid, String namespace, int second, Double utilization) {
        return new GpuScrape(
                T0.plusSeconds(second),
                "node-1",
                "10.0.0.1:9400",
                List.of(new GpuScrape.Device(
                        uuid,
                        0,
                        "NVIDIA H200",
                        null,
                        null,
                        null,
                        namespace,
                        "pod-" + namespace,
                        "main",
                        utilization,
                        utilization == null ? null : "GR_ENGINE_ACTIVE",
                        1.0,
                        1.0,
                        100.0)));
    }
}
