package io.gpuaas.booking.http;

import io.gpuaas.booking.config.HttpLimits;
import jakarta.inject.Singleton;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A token bucket per tenant: {@code burst} requests at once, refilled at {@code requestsPerSecond}. Kept per
 * instance; with N replicas a tenant gets N times the rate, which is fine for protecting the decider from one
 * noisy tenant.
 */
@Singleton
public class TenantRateLimiter {

    private final HttpLimits limits;
    private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();

    public TenantRateLimiter(HttpLimits limits) {
        this.limits = limits;
    }

    /** Takes a token for {@code tenant}; false when the tenant is over its rate. */
    public boolean tryAcquire(String tenant) {
        return buckets.computeIfAbsent(tenant, t -> new Bucket(limits.burst())).take(limits.requestsPerSecond(),
                limits.burst(), System.nanoTime());
    }

    /** Seconds until the tenant's next token, for Retry-After. */
    public long retryAfterSeconds() {
        return Math.max(1, (long) Math.ceil(1.0 / limits.requestsPerSecond()));
    }

    private static final class Bucket {
        private double tokens;
        private long last = System.nanoTime();

        Bucket(int burst) {
            tokens = burst;
        }

        synchronized boolean take(double perSecond, int burst, long now) {
            tokens = Math.min(burst, tokens + (now - last) / 1e9 * perSecond);
            last = now;
            if (tokens >= 1) {
                tokens -= 1;
                return true;
            }
            return false;
        }
    }
}
