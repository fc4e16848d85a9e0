package io.gpuaas.kit.http;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * A token bucket per tenant: {@code burst} requests at once, refilled at {@code perSecond}. Kept per replica; with
 * N replicas a tenant gets N times the rate, enough to keep one noisy tenant from starving the others.
 */
public final class TenantRateLimiter {

    private final double perSecond;
    private final int burst;
    private final LongSupplier nanoTime;
    private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();

    public TenantRateLimiter(double perSecond, int burst) {
        this(perSecond, burst, System::nanoTime);
    }

    TenantRateLimiter(double perSecond, int burst, LongSupplier nanoTime) {
        if (perSecond <= 0 || burst < 1) {
            throw new IllegalArgumentException("rate must be > 0 and burst >= 1, got " + perSecond + " and " + burst);
        }
        this.perSecond = perSecond;
        this.burst = burst;
        this.nanoTime = nanoTime;
    }

    /** Takes a token for {@code tenant}: empty when granted, else how long until the next token (for Retry-After). */
    public Optional<Duration> tryAcquire(String tenant) {
        long now = nanoTime.getAsLong();
        return buckets.computeIfAbsent(tenant, t -> new Bucket(burst, now)).take(now);
    }

    private final class Bucket {
        private double tokens;
        private long last;

        Bucket(int tokens, long now) {
            this.tokens = tokens;
            this.last = now;
        }

        synchronized Optional<Duration> take(long now) {
            tokens = Math.min(burst, tokens + Math.max(0, now - last) / 1e9 * perSecond);
            last = Math.max(last, now);
            if (tokens >= 1) {
                tokens -= 1;
                return Optional.empty();
            }
            return Optional.of(Duration.ofNanos((long) Math.ceil((1 - tokens) / perSecond * 1e9)));
        }
    }
}
