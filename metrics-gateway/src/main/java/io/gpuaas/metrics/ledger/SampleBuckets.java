package io.gpuaas.metrics.ledger;

import io.gpuaas.events.gpu.GpuActivity;
import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import java.util.HashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * Busy and idle device-milliseconds per namespace, pool and minute, from {@code gpuaas.gpu-samples}, charged as
 * TenantUsage charges them: the time between two readings of a device (at most {@code maxGap}) counts for the
 * namespace, pool and utilization of the first reading, in the minute that reading was taken; a reading without
 * utilization counts neither busy nor idle. Whole milliseconds, so the sums are exact whatever order the nodes'
 * scrapes (different partitions) are folded in; a device's own readings come in order (keyed by node).
 */
final class SampleBuckets {

    static final long MINUTE = 60_000;

    private record Reading(String namespace, String pool, long time, Double utilization, boolean media) {}

    private final PoolCatalog pools;
    private final double idleThreshold;
    private final long maxGapMillis;
    private final Map<String, Reading> devices = new HashMap<>();
    /** {@code namespace \u0000 pool} to minute (epoch ms) to {busy, idle} ms. */
    private final Map<String, NavigableMap<Long, long[]>> buckets = new HashMap<>();

    SampleBuckets(PoolCatalog pools, double idleThreshold, long maxGapMillis) {
        this.pools = pools;
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
            devices.put(key, reading(device, time));
        }
    }

    private Reading reading(GpuScrape.Device device, long time) {
        String pool = device.attributed()
                ? pools.forDevice(device.modelName(), device.migProfile())
                        .map(Pool::id)
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
        long[] bucket = buckets.computeIfAbsent(key(reading.namespace, reading.pool), k -> new TreeMap<>())
                .computeIfAbsent(minute, m -> new long[2]);
        bucket[GpuActivity.busy(reading.utilization, reading.media, idleThreshold) ? 0 : 1] += millis;
    }

    /** Every bucket (a deep copy): {@code namespace \u0000 pool} to minute to {busy, idle} ms. */
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

    /** The key of a namespace's buckets on a pool in {@link #copy()}. */
    static String key(String namespace, String pool) {
        return namespace + '\u0000' + pool;
    }
}
