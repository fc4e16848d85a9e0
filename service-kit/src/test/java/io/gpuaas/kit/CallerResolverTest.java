package io.gpuaas.kit;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.booking.Caller;
import io.gpuaas.kit.config.SecuritySettings;
import io.gpuaas.kit.security.CallerResolver;
import io.micronaut.security.authentication.Authentication;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CallerResolverTest {

    private final CallerResolver resolver = new CallerResolver(
            new SecuritySettings(null, "gpuaas-local", "gpuaas", null, "tenant", "namespaces", "admin", "metrics"));

    @Test
    void shouldMapTenantAndNamespacesWhenClaimsPresent() {
        Authentication auth = Authentication.build(
                "alice", List.of(), Map.of("tenant", "team-a", "namespaces", List.of("team-a", "team-a-dev")));

        assertThat(resolver.caller(auth)).isEqualTo(new Caller("alice", "team-a", false));
        assertThat(resolver.namespaces(auth)).containsExactly("team-a", "team-a-dev");
        assertThat(resolver.mayAccess(auth, "team-a-dev")).isTrue();
        assertThat(resolver.mayAccess(auth, "team-b")).isFalse();
    }

    @Test
    void shouldLetAdminAccessEveryNamespaceWhenRoleAdmin() {
        Authentication auth = Authentication.build("root", List.of("admin"), Map.of("tenant", "platform"));

        assertThat(resolver.caller(auth).admin()).isTrue();
        assertThat(resolver.mayAccess(auth, "team-b")).isTrue();
    }

    @Test
    void shouldAcceptCommaSeparatedNamespacesWhenIdpFlattensArrays() {
        Authentication auth =
                Authentication.build("bob", List.of(), Map.of("tenant", "team-b", "namespaces", "team-b, team-b-ml"));

        assertThat(resolver.namespaces(auth)).containsExactly("team-b", "team-b-ml");
    }
}
