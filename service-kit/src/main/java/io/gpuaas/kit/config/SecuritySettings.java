package io.gpuaas.kit.config;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.bind.annotation.Bindable;

/**
 * How bearer tokens map to gpuaas identities.
 *
 * @param jwksPath        {@code gpuaas.security.jwks-path}: a JWKS file whose public keys sign valid tokens
 * @param tenantClaim     claim holding the tenant, default {@code tenant}
 * @param namespacesClaim claim holding the namespaces the tenant owns, default {@code namespaces}
 * @param adminRole       role (in the {@code roles} claim) that sees and changes everything, default {@code admin}
 * @param metricsRole     role that may read {@code /metrics}, default {@code metrics}
 */
@ConfigurationProperties("gpuaas.security")
public record SecuritySettings(
        @Nullable String jwksPath,
        @Bindable(defaultValue = "tenant") String tenantClaim,
        @Bindable(defaultValue = "namespaces") String namespacesClaim,
        @Bindable(defaultValue = "admin") String adminRole,
        @Bindable(defaultValue = "metrics") String metricsRole) {

    public SecuritySettings {
        tenantClaim = orDefault(tenantClaim, "tenant");
        namespacesClaim = orDefault(namespacesClaim, "namespaces");
        adminRole = orDefault(adminRole, "admin");
        metricsRole = orDefault(metricsRole, "metrics");
    }

    private static String orDefault(String value, String fallback) {
        return value == null || value.isBlank() ? fallback : value;
    }
}
