package io.gpuaas.kit.config;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.context.exceptions.ConfigurationException;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;

/**
 * How bearer tokens are checked and how they map to gpuaas identities.
 *
 * @param jwksPath        {@code gpuaas.security.jwks-path}: a JWKS file whose public keys sign valid tokens
 * @param issuer          {@code gpuaas.security.issuer}: the exact {@code iss} every token must carry (required)
 * @param audience        {@code gpuaas.security.audience}: a value the token's {@code aud} must contain (required)
 * @param clockSkew       how far {@code exp} and {@code nbf} may be off between the identity provider and us,
 *                        default 60 s, at most 5 min
 * @param tenantClaim     claim holding the tenant, default {@code tenant}
 * @param namespacesClaim claim holding the namespaces the tenant owns, default {@code namespaces}
 * @param adminRole       role (in the {@code roles} claim) that sees and changes everything, default {@code admin}
 * @param metricsRole     role that may read {@code /metrics} and health details, default {@code metrics}
 */
@ConfigurationProperties("gpuaas.security")
public record SecuritySettings(
        @Nullable String jwksPath,
        @Nullable String issuer,
        @Nullable String audience,
        @Bindable(defaultValue = "PT60S") Duration clockSkew,
        @Bindable(defaultValue = "tenant") String tenantClaim,
        @Bindable(defaultValue = "namespaces") String namespacesClaim,
        @Bindable(defaultValue = "admin") String adminRole,
        @Bindable(defaultValue = "metrics") String metricsRole) {

    /** A skew beyond this would keep a revoked-by-expiry token alive for longer than anyone expects. */
    public static final Duration MAX_CLOCK_SKEW = Duration.ofMinutes(5);

    public SecuritySettings {
        // A token from any issuer or for any audience signed by a trusted key would otherwise pass: refuse to start.
        if (issuer == null || issuer.isBlank()) {
            throw new ConfigurationException("gpuaas.security.issuer must be set: the iss every token must carry");
        }
        if (audience == null || audience.isBlank()) {
            throw new ConfigurationException("gpuaas.security.audience must be set: a value every token's aud holds");
        }
        clockSkew = clockSkew == null ? Duration.ofSeconds(60) : clockSkew;
        if (clockSkew.isNegative() || clockSkew.compareTo(MAX_CLOCK_SKEW) > 0) {
            throw new ConfigurationException(
                    "gpuaas.security.clock-skew must be between 0 and " + MAX_CLOCK_SKEW + ", got " + clockSkew);
        }
        tenantClaim = orDefault(tenantClaim, "tenant");
        namespacesClaim = orDefault(namespacesClaim, "namespaces");
        adminRole = orDefault(adminRole, "admin");
        metricsRole = orDefault(metricsRole, "metrics");
    }

    private static String orDefault(String value, String fallback) {
        return value == null || value.isBlank() ? fallback : value;
    }
}
