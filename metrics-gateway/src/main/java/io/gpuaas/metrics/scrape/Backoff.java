package io.gpuaas.metrics.scrape;

import java.time.Duration;

/**
 * When to scrape a target next: on the interval while it answers, and exponentially later while it fails
 * (interval x 2^failures, capped), so a dead exporter costs one attempt per {@code max} instead of one per tick.
 */
public record Backoff(Duration interval, Duration max) {

    public Duration afterSuccess(Duration elapsed) {
        Duration remaining = interval.minus(elapsed);
        return remaining.isNegative() ? Duration.ZERO : remaining;
    }

    public Duration afterFailures(int consecutiveFailures) {
        int shift = Math.min(Math.max(consecutiveFailures, 1), 20);
        long millis = interval.toMillis() << shift;
        return Duration.ofMillis(Math.min(millis, max.toMillis()));
    }
}
