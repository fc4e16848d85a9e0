package io.gpuaas.kit.runtime;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Exponential backoff with jitter: attempt 1 waits about {@code initial}, each further attempt twice as long, never
 * more than {@code max}. The jitter (the wait is drawn from its upper half) keeps replicas that failed together from
 * retrying in lockstep against a broker or API server that is coming back.
 */
record Backoff(Duration initial, Duration max) {

    Backoff {
        if (initial.isNegative() || initial.isZero() || max.compareTo(initial) < 0) {
            throw new IllegalArgumentException("backoff needs 0 < initial <= max, got " + initial + ", " + max);
        }
    }

    /** The wait before retry number {@code attempt} (1 = the first retry). */
    Duration delay(int attempt) {
        long ceiling = ceiling(attempt).toNanos();
        long half = ceiling / 2;
        return Duration.ofNanos(half + ThreadLocalRandom.current().nextLong(ceiling - half + 1));
    }

    /** The upper bound of {@link #delay}: {@code initial * 2^(attempt-1)}, capped at {@code max}. */
    Duration ceiling(int attempt) {
        int doublings = Math.max(0, Math.min(attempt - 1, 30));
        long nanos = initial.toNanos();
        for (int i = 0; i < doublings && nanos < max.toNanos(); i++) {
            nanos = Math.multiplyExact(nanos, 2);
        }
        return Duration.ofNanos(Math.min(nanos, max.toNanos()));
    }
}
