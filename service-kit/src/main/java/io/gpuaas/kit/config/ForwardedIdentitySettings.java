package io.gpuaas.kit.config;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.context.exceptions.ConfigurationException;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;

/**
 * Sign-in through a cluster's OAuth proxy (docs/sign-in.md): a request carrying the proxy's forwarded access token
 * is authenticated by asking the API server who the token belongs to, and the user's groups map to a tenant,
 * namespaces and roles through a mapping file. Off unless {@code enabled}: the header is then ignored.
 *
 * @param enabled     {@code gpuaas.security.forwarded-identity.enabled}, default false
 * @param header      the header holding the user's token, default {@code X-Forwarded-Access-Token}
 * @param apiServer   the API server that answers {@code users/~}, default {@code https://kubernetes.default.svc}
 * @param caPath      PEM file of the CA that signed the API server's certificate; none: the JVM's trust store
 * @param mappingPath YAML file mapping groups to tenant/namespaces/roles (required when enabled)
 * @param cacheTtl    how long an answer of the API server is reused for the same token, default 30 s, at most 5 min
 * @param timeout     how long a lookup may take before the request is answered 503, default 5 s
 */
@ConfigurationProperties("gpuaas.security.forwarded-identity")
public record ForwardedIdentitySettings(
        @Bindable(defaultValue = "false") boolean enabled,
        @Bindable(defaultValue = "X-Forwarded-Access-Token") String header,

        @Bindable(defaultValue = "https://kubernetes.default.svc")
        String apiServer,

        @Nullable String caPath,
        @Nullable String mappingPath,
        @Bindable(defaultValue = "PT30S") Duration cacheTtl,
        @Bindable(defaultValue = "PT5S") Duration timeout) {

    /** A revoked token stays usable for at most this long after the API server starts refusing it. */
    public static final Duration MAX_CACHE_TTL = Duration.ofMinutes(5);

    public ForwardedIdentitySettings {
        header = header == null || header.isBlank() ? "X-Forwarded-Access-Token" : header;
        apiServer = apiServer == null || apiServer.isBlank() ? "https://kubernetes.default.svc" : apiServer;
        cacheTtl = cacheTtl == null ? Duration.ofSeconds(30) : cacheTtl;
        timeout = timeout == null ? Duration.ofSeconds(5) : timeout;
        if (enabled && (mappingPath == null || mappingPath.isBlank())) {
            throw new ConfigurationException("gpuaas.security.forwarded-identity.mapping-path must be set when enabled:"
                    + " without it no user has a tenant");
        }
        if (cacheTtl.isNegative() || cacheTtl.compareTo(MAX_CACHE_TTL) > 0) {
            throw new ConfigurationException("gpuaas.security.forwarded-identity.cache-ttl must be between 0 and "
                    + MAX_CACHE_TTL + ", got " + cacheTtl);
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new ConfigurationException("gpuaas.security.forwarded-identity.timeout must be positive");
        }
    }
}
