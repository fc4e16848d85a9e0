package io.gpuaas.metrics.ledger;

import io.gpuaas.events.gpu.GpuActivity;
import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.events.pool.PoolCatalog;
import java.util.HashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * Busy and idle device-milliseconds per namespace, pool, resource and minute, from {@code gpuaas.gpu-samples},
 * charged as TenantUsage charges them: the time between two readings of a device (at most {@code maxGap}) counts for
 * the namespace, pool, resource and utilization of the first reading, in the minute that reading was taken; a reading
 * without utilization counts neither busy nor idle. Whole milliseconds, so the sums are exact whatever order the
 * nodes' scrapes (different partitions) are folded in; a device's own readings come in order (keyed by node). The
 * device's pool and resource: {@link DevicePools}.
 */
final class SampleBuckets {

    static final long MINUTE = 60_000;

    private record Reading(String namespace, String pool, long time, Double utilization, boolean media) {}

    private final DevicePools pools;
    private final double idleThreshold;
    private final long maxGapMillis;
    private final Map<String, Reading> devices = new HashMap<>();
    /** {@code namespace \u0000 pool \u0000 resource} to minute (epoch ms) to {busy, idle} ms. */
    private final Map<String, NavigableMap<Long, long[]>> buckets = new HashMap<>();

    SampleBuckets(PoolCatalog pools, double idleThreshold, long maxGapMillis) {
        this.pools = new DevicePools(pools);
        this.idleThreshold = idleThreshold;
        this.maxGapMillis = maxGapMillis;
    }

    void apply(GpuScrape scrape) {
        long time = scrape.time().toEpochMilli();
        for (GpuScrape.Device device : scrape.devices()) {
            String key = scrape.deviceKey(device);
            Reading last = devices.get(key);
            if (last != null && time <= last.time) {
                continue;
            }
            if (last != null && last.namespace != null && last.utilization != null) {
                charge(last, Math.min(time - last.time, maxGapMillis));
            }
            devices.put(key, reading(scrape.node(), device, time));
        }
    }

    /**
     * A reading's pool is kept as its bucket's pool and resource ({@link #key(String, String, String)}): on a flexible
     * pool the device's own resource, so that a slice's time is served to the bookings of its profile.
     */
    private Reading reading(String node, GpuScrape.Device device, long time) {
        String pool = device.attributed()
                ? pools.of(node, device.modelName(), device.migProfile())
                        .map(p -> poolResource(p.pool().id(), p.resource()))
                        .orElse(null)
                : null;
        return new Reading(
                pool == null ? null : device.namespace(),
                pool,
                time,
                device.utilization(),
                GpuActivity.mediaBusy(device));
    }

    private void charge(Reading reading, long millis) {
        long minute = Math.floorDiv(reading.time, MINUTE) * MINUTE;
        long[] bucket = buckets.computeIfAbsent(reading.namespace + '\u0000' + reading.pool, k -> new TreeMap<>())
                .computeIfAbsent(minute, m -> new long[2]);
        bucket[GpuActivity.busy(reading.utilization, reading.media, idleThreshold) ? 0 : 1] += millis;
    }

    /** Every bucket (a deep copy): {@code namespace \u0000 pool \u0000 resource} to minute to {busy, idle} ms. */
    Map<String, NavigableMap<Long, long[]>> copy() {
        Map<String, NavigableMap<Long, long[]>> copy = new HashMap<>();
        buckets.forEach((key, minutes) -> {
            NavigableMap<Long, long[]> to = new TreeMap<>();
            minutes.forEach((minute, ms) -> to.put(minute, ms.clone()));
            copy.put(key, to);
        });
        return copy;
    }

    /** Forgets the minutes before {@code cutoff} (their days are sealed); the devices' last readings stay. */
    void dropBefore(long cutoff) {
        buckets.values().forEach(minutes -> minutes.headMap(cutoff, false).clear());
        buckets.values().removeIf(Map::isEmpty);
    }

    /** The key of a namespace's buckets of one resource of a pool in {@link #copy()}. */
    static String key(String namespace, String pool, String resource) {
        return namespace + '\u0000' + poolResource(pool, resource);
    }

    private static String poolResource(String pool, String resource) {
        return pool + '\u0000' + resource;
    }
}
