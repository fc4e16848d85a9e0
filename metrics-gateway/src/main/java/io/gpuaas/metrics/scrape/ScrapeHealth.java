package io.gpuaas.metrics.scrape;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** The health of every scrape target, read by the /metrics collector; written by the target loops. */
public final class ScrapeHealth {

    /**
     * The latest outcome for one target.
     *
     * @param up               whether the last scrape succeeded
     * @param durationSeconds  how long the last scrape took, successful or not
     * @param samples          devices in the last successful scrape
     * @param badLinesTotal    malformed lines skipped since the target appeared
     * @param failuresTotal    failed scrapes since the target appeared
     * @param consecutiveFails failures since the last success (drives the backoff)
     */
    public record TargetHealth(
            boolean up,
            double durationSeconds,
            int samples,
            long badLinesTotal,
            long failuresTotal,
            int consecutiveFails) {
        static final TargetHealth NEW = new TargetHealth(false, 0, 0, 0, 0, 0);
    }

    private final Map<String, TargetHealth> targets = new ConcurrentHashMap<>();
    private final LongAdder published = new LongAdder();

    public TargetHealth succeeded(ScrapeTarget target, double seconds, int samples, int badLines) {
        published.add(samples);
        return targets.compute(target.label(), (k, h) -> {
            TargetHealth old = h == null ? TargetHealth.NEW : h;
            return new TargetHealth(true, seconds, samples, old.badLinesTotal() + badLines, old.failuresTotal(), 0);
        });
    }

    public TargetHealth failed(ScrapeTarget target, double seconds) {
        return targets.compute(target.label(), (k, h) -> {
            TargetHealth old = h == null ? TargetHealth.NEW : h;
            return new TargetHealth(
                    false,
                    seconds,
                    old.samples(),
                    old.badLinesTotal(),
                    old.failuresTotal() + 1,
                    old.consecutiveFails() + 1);
        });
    }

    void forget(ScrapeTarget target) {
        targets.remove(target.label());
    }

    /** Target label to its latest health; a live view. */
    public Map<String, TargetHealth> targets() {
        return targets;
    }

    public long samplesPublished() {
        return published.sum();
    }
}
