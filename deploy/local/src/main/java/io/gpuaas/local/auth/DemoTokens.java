package io.gpuaas.local.auth;

import io.gpuaas.events.Json;
import io.gpuaas.local.PrivateFiles;
import io.gpuaas.local.k8s.Tenant;
import io.gpuaas.testing.auth.TestJwt;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The local stack's identity provider: one RSA key (kept in {@code jwt-private.jwk} so tokens survive a restart),
 * its JWKS for the services, and long-lived demo tokens per tenant plus {@code admin} and {@code prometheus}. The
 * tokens carry the issuer and audience the services expect by default ({@code gpuaas.security.issuer}
 * {@value TestJwt#ISSUER}, {@code gpuaas.security.audience} {@value TestJwt#AUDIENCE}), and an {@code exp}.
 */
public final class DemoTokens {

    public static final Duration TTL = Duration.ofDays(30);

    private DemoTokens() {}

    /**
     * Writes {@code jwks.json} and {@code demo-tokens.json} into {@code dir}; returns the tokens by name.
     * The tokens file maps a name to {@code {token, subject, tenant, namespaces, roles, issuer, audience}}.
     */
    public static Map<String, Map<String, Object>> write(Path dir, List<Tenant> tenants) {
        // The key file is created with mode 600 (TestJwt#writePrivateJwk), as is the tokens file below.
        TestJwt jwt = TestJwt.loadOrGenerate(dir.resolve("jwt-private.jwk"));
        jwt.writeJwks(dir.resolve("jwks.json"));
        Map<String, Map<String, Object>> tokens = new LinkedHashMap<>();
        for (Tenant tenant : tenants) {
            tokens.put(
                    tenant.name(), entry(jwt, tenant.name() + "-user", tenant.name(), tenant.namespaces(), List.of()));
        }
        tokens.put("admin", entry(jwt, "admin", null, List.of(), List.of("admin")));
        // The platform's Prometheus: reads /metrics and may remote-write dcgm-exporter scrapes to the gateway.
        tokens.put("prometheus", entry(jwt, "prometheus", null, List.of(), List.of("metrics", "metrics-writer")));
        try {
            PrivateFiles.write(
                    dir.resolve("demo-tokens.json"),
                    Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(tokens));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write demo tokens to " + dir, e);
        }
        return tokens;
    }

    private static Map<String, Object> entry(
            TestJwt jwt, String subject, String tenant, List<String> namespaces, List<String> roles) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("token", jwt.token(subject, tenant, namespaces, roles, TTL));
        entry.put("subject", subject);
        entry.put("tenant", tenant);
        entry.put("namespaces", namespaces);
        entry.put("roles", roles);
        entry.put("issuer", TestJwt.ISSUER);
        entry.put("audience", TestJwt.AUDIENCE);
        return entry;
    }
}
