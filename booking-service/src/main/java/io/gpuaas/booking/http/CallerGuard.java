package io.gpuaas.booking.http;

import io.gpuaas.booking.config.HttpLimits;
import io.gpuaas.booking.metrics.BookingMetrics;
import io.gpuaas.events.booking.Caller;
import io.gpuaas.kit.http.TenantRateLimiter;
import io.gpuaas.kit.security.CallerResolver;
import io.micronaut.security.authentication.Authentication;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.Optional;

/**
 * Resolves the caller of an API request and applies the per-tenant rate limit (service-kit's token bucket, kept per
 * instance: with N replicas a tenant gets N times the rate, enough to keep one noisy tenant off the decider).
 */
@Singleton
public class CallerGuard {

    private final CallerResolver resolver;
    private final TenantRateLimiter limiter;
    private final BookingMetrics metrics;

    public CallerGuard(CallerResolver resolver, HttpLimits limits, BookingMetrics metrics) {
        this.resolver = resolver;
        this.limiter = new TenantRateLimiter(limits.requestsPerSecond(), limits.burst());
        this.metrics = metrics;
    }

    /**
     * The caller, rate limited. An admin without a tenant claim comes back with a null tenant: it reads everything
     * but must name the tenant it acts for ({@link #actingFor}); it is never given a made-up one.
     */
    public Caller admit(Authentication authentication) {
        Caller caller = resolver.caller(authentication);
        if (caller.tenant() == null || caller.tenant().isBlank()) {
            if (!caller.admin()) {
                throw new ProblemException(403, "NO_TENANT", "Authorization", "the token carries no tenant claim");
            }
            caller = new Caller(caller.subject(), null, true);
        }
        String bucket = caller.tenant() != null ? caller.tenant() : "admin:" + caller.subject();
        Optional<Duration> refused = limiter.tryAcquire(bucket);
        if (refused.isPresent()) {
            metrics.rateLimited();
            throw new ProblemException(429, "RATE_LIMITED", null, "tenant " + bucket + " sends too many requests")
                    .with(ProblemException.RETRY_AFTER_SECONDS, retryAfterSeconds(refused.get()));
        }
        return caller;
    }

    /**
     * The caller as it acts for {@code requested} (the request's {@code tenant} field). Admins must name the tenant
     * (422 otherwise; a tenant claim of their own does not count, so no booking lands on an admin's tenant by
     * omission). A tenant may omit it or name itself; naming another is 403, like a namespace it does not own.
     */
    public Caller actingFor(Caller caller, String requested) {
        if (caller.admin()) {
            if (requested == null || requested.isBlank()) {
                throw new ProblemException(
                        422,
                        "TENANT_REQUIRED",
                        "tenant",
                        "an admin must name the tenant it acts for in the tenant field");
            }
            return new Caller(caller.subject(), requested, true);
        }
        if (requested != null && !requested.equals(caller.tenant())) {
            throw new ProblemException(
                    403,
                    "TENANT_NOT_OWNED",
                    "tenant",
                    "a tenant may act only for itself; omit tenant or give " + caller.tenant());
        }
        return caller;
    }

    /** Whole seconds until the tenant's next token, at least one (Retry-After has no fractions). */
    static long retryAfterSeconds(Duration wait) {
        return Math.max(1, (wait.toNanos() + 999_999_999L) / 1_000_000_000L);
    }

    /**
     * Whether the caller may book in {@code namespace}: only one of its own {@code namespaces} claim, admins
     * included. The admin role reads everything, but a booking is written for a tenant and the ledger and the
     * dashboard attribute its namespace to that tenant, so an admin may no longer book any team's namespace. What
     * stays trusted: the tenant an admin names ({@link #actingFor}); booking-service has no source of which
     * namespaces a tenant owns beyond the caller's own token, so an admin's namespaces claim should hold only
     * namespaces of the tenants it books for.
     */
    public boolean mayBookFor(Authentication authentication, String namespace) {
        return resolver.namespaces(authentication).contains(namespace);
    }
}
