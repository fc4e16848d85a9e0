package io.gpuaas.booking.webhook;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Waits between delivery attempts: {@code initial * 2^(retry-1)}, capped at {@code max}, less up to a quarter of
 * jitter. The jitter spreads the retries of many deliveries to an endpoint that came back; drawing from the upper
 * quarter only keeps every gap longer than the one before it until the cap, so a receiver sees the backoff grow.
 */
public record RetryBackoff(Duration initial, Duration max) {

    public RetryBackoff {
        if (!initial.isPositive() || max.compareTo(initial) < 0) {
            throw new IllegalArgumentException("backoff needs 0 < initial <= max, got " + initial + ", " + max);
        }
    }

    /** The wait before retry number {@code retry} (1 = after the first failed attempt). */
    public Duration delay(int retry) {
        long ceiling = ceiling(retry).toNanos();
        long floor = ceiling - ceiling / 4;
        return Duration.ofNanos(floor + ThreadLocalRandom.current().nextLong(ceiling - floor + 1));
    }

    /** The upper bound of {@link #delay}. */
    public Duration ceiling(int retry) {
        long nanos = initial.toNanos();
        for (int i = 1; i < Math.min(retry, 40) && nanos < max.toNanos(); i++) {
            nanos = Math.multiplyExact(nanos, 2);
        }
        return Duration.ofNanos(Math.min(nanos, max.toNanos()));
    }
}
