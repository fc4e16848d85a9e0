package io.gpuaas.kit.security;

import io.gpuaas.events.booking.Caller;
import io.gpuaas.kit.config.SecuritySettings;
import io.micronaut.security.authentication.Authentication;
import jakarta.inject.Singleton;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;

/** Turns an authenticated token into a gpuaas caller: tenant, owned namespaces, admin or not. */
@Singleton
public class CallerResolver {

    private final SecuritySettings settings;

    public CallerResolver(SecuritySettings settings) {
        this.settings = settings;
    }

    public Caller caller(Authentication authentication) {
        Object tenant = authentication.getAttributes().get(settings.tenantClaim());
        return new Caller(authentication.getName(), tenant == null ? null : tenant.toString(), isAdmin(authentication));
    }

    public boolean isAdmin(Authentication authentication) {
        return authentication.getRoles().contains(settings.adminRole());
    }

    /** The namespaces the caller's tenant owns, from the namespaces claim (a list or a comma-separated string). */
    public Set<String> namespaces(Authentication authentication) {
        Object claim = authentication.getAttributes().get(settings.namespacesClaim());
        Set<String> namespaces = new LinkedHashSet<>();
        if (claim instanceof Collection<?> values) {
            values.forEach(v -> namespaces.add(v.toString()));
        } else if (claim != null) {
            for (String part : claim.toString().split(",")) {
                if (!part.isBlank()) {
                    namespaces.add(part.trim());
                }
            }
        }
        return namespaces;
    }

    /** Whether the caller may act in {@code namespace}: admins everywhere, tenants in the namespaces they own. */
    public boolean mayAccess(Authentication authentication, String namespace) {
        return isAdmin(authentication) || namespaces(authentication).contains(namespace);
    }
}
