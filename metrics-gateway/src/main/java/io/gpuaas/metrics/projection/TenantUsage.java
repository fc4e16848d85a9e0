package io.gpuaas.metrics.projection;

import io.gpuaas.events.gpu.GpuActivity;
import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.events.tenant.TenantUtilization;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Per-tenant GPU use from {@code gpuaas.gpu-samples}. The time between two readings of a device is charged to
 * the tenant that held it at the first sample, as busy (utilization above the threshold), idle (at or under
 * it) or neither (no reading: doubt is never counted as idle). Gaps longer than {@code maxGap} are capped, so
 * an exporter outage is not charged in full. Cumulative totals feed the counters; a window accumulator feeds
 * the one-minute rollups.
 */
public final class TenantUsage {

    /** Gauges and counters of one tenant at scrape time. */
    public record TenantGauges(int allocated, double meanUtilization, double busySeconds, double idleSeconds) {}

    private static final class Device {
        String tenant;
        Instant time;
        Double utilization;
        /** The video decoder or encoder worked (busy whatever the utilization: {@code GpuActivity}). */
        boolean media;
    }

    private static final class Window {
        double allocated;
        double busy;
        double idle;
        double utilizationWeighted;
        double utilizationSeconds;
    }

    private final TenantDirectory tenants;
    private final double idleThreshold;
    private final Duration staleAfter;
    private final Duration maxGap;
    private final Map<String, Device> devices = new HashMap<>();
    private final Map<String, double[]> totals = new HashMap<>();
    private Map<String, Window> window = new HashMap<>();

    public TenantUsage(TenantDirectory tenants, double idleThreshold, Duration staleAfter, Duration maxGap) {
        this.tenants = tenants;
        this.idleThreshold = idleThreshold;
        this.staleAfter = staleAfter;
        this.maxGap = maxGap;
    }

    /** Charges every device of {@code scrape}. */
    public synchronized void apply(GpuScrape scrape) {
        for (GpuScrape.Device reading : scrape.devices()) {
            apply(scrape.deviceKey(reading), scrape.time(), reading);
        }
    }

    private void apply(String key, Instant time, GpuScrape.Device reading) {
        Device device = devices.computeIfAbsent(key, k -> new Device());
        if (device.tenant != null && device.time != null && time.isAfter(device.time)) {
            charge(device, Duration.between(device.time, time));
        }
        if (device.time == null || !time.isBefore(device.time)) {
            device.tenant = reading.attributed() ? tenants.tenantOf(reading.namespace()) : null;
            device.time = time;
            device.utilization = reading.utilization();
            device.media = GpuActivity.mediaBusy(reading);
            if (device.tenant != null) {
                // A tenant once seen keeps its series (allocated drops to 0) instead of vanishing from /metrics.
                totals.computeIfAbsent(device.tenant, t -> new double[2]);
            }
        }
    }

    private void charge(Device device, Duration gap) {
        double seconds = Math.min(gap.toNanos(), maxGap.toNanos()) / 1e9;
        double[] total = totals.computeIfAbsent(device.tenant, t -> new double[2]);
        Window w = window.computeIfAbsent(device.tenant, t -> new Window());
        w.allocated += seconds;
        if (device.utilization == null) {
            return;
        }
        w.utilizationWeighted += device.utilization * seconds;
        w.utilizationSeconds += seconds;
        if (GpuActivity.busy(device.utilization, device.media, idleThreshold)) {
            total[0] += seconds;
            w.busy += seconds;
        } else {
            total[1] += seconds;
            w.idle += seconds;
        }
    }

    /** Every tenant seen so far, with the devices it holds now (sampled within {@code staleAfter}). */
    public synchronized Map<String, TenantGauges> gauges(Instant now) {
        Map<String, int[]> counts = new HashMap<>();
        Map<String, double[]> utilization = new HashMap<>();
        Instant freshSince = now.minus(staleAfter);
        devices.values().removeIf(d -> d.time.isBefore(freshSince.minus(staleAfter.multipliedBy(10))));
        for (Device d : devices.values()) {
            if (d.tenant == null || d.time.isBefore(freshSince)) {
                continue;
            }
            counts.computeIfAbsent(d.tenant, t -> new int[1])[0]++;
            if (d.utilization != null) {
                double[] u = utilization.computeIfAbsent(d.tenant, t -> new double[2]);
                u[0] += d.utilization;
                u[1]++;
            }
        }
        Map<String, TenantGauges> result = new TreeMap<>();
        totals.forEach((tenant, t) -> result.put(tenant, gauges(tenant, counts, utilization, t)));
        counts.keySet()
                .forEach(tenant -> result.computeIfAbsent(tenant, k -> gauges(k, counts, utilization, new double[2])));
        return result;
    }

    private static TenantGauges gauges(
            String tenant, Map<String, int[]> counts, Map<String, double[]> utilization, double[] total) {
        int allocated = counts.containsKey(tenant) ? counts.get(tenant)[0] : 0;
        double[] u = utilization.get(tenant);
        double mean = u == null ? Double.NaN : u[0] / u[1];
        return new TenantGauges(allocated, mean, total[0], total[1]);
    }

    /** Forgets what the current window charged so far: a new rollup publisher starts its window now. */
    public synchronized void discardWindow() {
        window = new HashMap<>();
    }

    /** Closes the current window: one rollup per tenant that held GPUs or bookings in it. */
    public List<TenantUtilization> rollup(Instant start, Instant end, Map<String, Map<String, Integer>> booked) {
        Map<String, Window> closed;
        synchronized (this) {
            closed = window;
            window = new HashMap<>();
        }
        List<TenantUtilization> rollups = new ArrayList<>();
        Map<String, Window> all = new TreeMap<>(closed);
        booked.keySet().forEach(tenant -> all.putIfAbsent(tenant, new Window()));
        all.forEach((tenant, w) -> rollups.add(new TenantUtilization(
                tenant,
                start,
                end,
                w.allocated,
                w.busy,
                w.idle,
                w.utilizationSeconds == 0 ? 0 : w.utilizationWeighted / w.utilizationSeconds,
                booked.getOrDefault(tenant, Map.of()))));
        return rollups;
    }
}
