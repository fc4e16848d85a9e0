package io.gpuaas.reclaim;

import io.gpuaas.events.gpu.GpuScrape;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** Sample series on a fixed slot grid: slot {@code i} is {@code t0 + i × interval}; one scrape per device reading. */
public final class Samples {

    /** One GPU device attributed to a pod. */
    public record Device(String host, String uuid, String gpuInstanceId, String namespace, String pod) {}

    private final Instant t0;
    private final Duration interval;

    public Samples(Instant t0, Duration interval) {
        this.t0 = t0;
        this.interval = interval;
    }

    /** A grid starting a little in the future, aligned to the interval, so pods created now are older. */
    public static Samples startingSoon(Duration interval) {
        long step = interval.toMillis();
        long start = (System.currentTimeMillis() / step + (2_000 / step)) * step;
        return new Samples(Instant.ofEpochMilli(start), interval);
    }

    public Instant at(int slot) {
        return t0.plus(interval.multipliedBy(slot));
    }

    /** Samples of {@code device} for slots {@code from..to} (inclusive) at {@code utilization}, minus {@code gaps}. */
    public List<GpuScrape> run(Device d, int from, int to, Double utilization, Set<Integer> gaps) {
        List<GpuScrape> out = new ArrayList<>();
        for (int slot = from; slot <= to; slot++) {
            if (!gaps.contains(slot)) {
                out.add(Fixtures.sample(
                        d.host(), d.uuid(), d.gpuInstanceId(), d.namespace(), d.pod(), at(slot), utilization));
            }
        }
        return out;
    }

    public List<GpuScrape> run(Device d, int from, int to, Double utilization) {
        return run(d, from, to, utilization, Set.of());
    }

    public GpuScrape one(Device d, int slot, Double utilization) {
        return Fixtures.sample(d.host(), d.uuid(), d.gpuInstanceId(), d.namespace(), d.pod(), at(slot), utilization);
    }
}
