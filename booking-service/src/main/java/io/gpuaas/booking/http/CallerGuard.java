package io.gpuaas.booking.http;

import io.gpuaas.booking.metrics.BookingMetrics;
import io.gpuaas.events.booking.Caller;
import io.gpuaas.kit.security.CallerResolver;
import io.micronaut.security.authentication.Authentication;
import jakarta.inject.Singleton;

/** Resolves the caller of an API request and applies the per-tenant rate limit. */
@Singleton
public class CallerGuard {

    /** Tenant recorded on bookings an admin makes without a tenant claim of its own. */
    static final String PLATFORM_TENANT = "platform";

    private final CallerResolver resolver;
    private final TenantRateLimiter limiter;
    private final BookingMetrics metrics;

    public CallerGuard(CallerResolver resolver, TenantRateLimiter limiter, BookingMetrics metrics) {
        this.resolver = resolver;
        this.limiter = limiter;
        this.metrics = metrics;
    }

    public Caller admit(Authentication authentication) {
        Caller caller = resolver.caller(authentication);
        if (caller.tenant() == null || caller.tenant().isBlank()) {
            if (!caller.admin()) {
                throw new ProblemException(403, "NO_TENANT", "Authorization", "the token carries no tenant claim");
            }
            caller = new Caller(caller.subject(), PLATFORM_TENANT, true);
        }
        if (!limiter.tryAcquire(caller.tenant())) {
            metrics.rateLimited();
            throw new ProblemException(429, "RATE_LIMITED", null, "tenant " + caller.tenant() + " sends too many requests")
                    .with("retryAfterSeconds", limiter.retryAfterSeconds());
        }
        return caller;
    }

    public boolean mayUse(Authentication authentication, String namespace) {
        return resolver.mayAccess(authentication, namespace);
    }
}
