package io.gpuaas.kit.security.forwarded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuaas.kit.security.forwarded.GroupMapping.Ambiguous;
import io.gpuaas.kit.security.forwarded.GroupMapping.Entry;
import io.gpuaas.kit.security.forwarded.GroupMapping.Mapped;
import io.gpuaas.kit.security.forwarded.GroupMapping.Unmapped;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GroupMappingTest {

    private final GroupMapping mapping = new GroupMapping(List.of(
            new Entry("team-a", "team-a", List.of("team-a", "team-a-dev"), List.of()),
            new Entry("team-b", "team-b", List.of(), List.of()),
            new Entry("gpuaas-admins", null, List.of(), List.of("admin")),
            new Entry("sre", null, List.of(), List.of("metrics"))));

    @Test
    void shouldGiveTenantAndItsNamespacesWhenUserIsInOneTenantGroup() {
        assertThat(mapping.resolve(List.of("system:authenticated", "team-a")))
                .isEqualTo(new Mapped("team-a", List.of("team-a", "team-a-dev"), Set.of()));
    }

    @Test
    void shouldDefaultNamespacesToTheTenantWhenEntryListsNone() {
        assertThat(mapping.resolve(List.of("team-b"))).isEqualTo(new Mapped("team-b", List.of("team-b"), Set.of()));
    }

    @Test
    void shouldAddRolesOfEveryGroupWhenUserIsInRoleGroups() {
        assertThat(mapping.resolve(List.of("team-a", "sre")))
                .isEqualTo(new Mapped("team-a", List.of("team-a", "team-a-dev"), Set.of("metrics")));
        assertThat(mapping.resolve(List.of("gpuaas-admins", "sre")))
                .isEqualTo(new Mapped(null, List.of(), Set.of("admin", "metrics")));
    }

    @Test
    void shouldRefuseWhenUserIsInNoMappedGroup() {
        assertThat(mapping.resolve(List.of("system:authenticated", "team-c"))).isEqualTo(new Unmapped());
    }

    @Test
    void shouldRefuseRatherThanPickWhenUserIsInTwoTenantsGroups() {
        assertThat(mapping.resolve(List.of("team-a", "team-b", "gpuaas-admins")))
                .isEqualTo(new Ambiguous(Set.of("team-a", "team-b")));
    }

    @Test
    void shouldReadTheConfigMapFormatWhenFileIsWellFormed(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("groups.yaml"), """
                # one line per group
                groups:
                  - {group: team-a, tenant: team-a, namespaces: [team-a, team-a-dev]}
                  - group: gpuaas-admins
                    roles: [admin]
                """);

        GroupMapping loaded = GroupMapping.load(file);

        assertThat(loaded.resolve(List.of("team-a", "gpuaas-admins")))
                .isEqualTo(new Mapped("team-a", List.of("team-a", "team-a-dev"), Set.of("admin")));
    }

    @Test
    void shouldRefuseTheWholeFileWhenAnEntryIsWrong(@TempDir Path dir) throws Exception {
        Path noGrant = Files.writeString(dir.resolve("a.yaml"), "groups:\n  - {group: team-a}\n");
        Path twice = Files.writeString(
                dir.resolve("b.yaml"), "groups:\n  - {group: t, tenant: a}\n  - {group: t, tenant: b}\n");
        Path namespacesWithoutTenant = Files.writeString(
                dir.resolve("c.yaml"), "groups:\n  - {group: ops, namespaces: [x], roles: [admin]}\n");
        Path notAList = Files.writeString(dir.resolve("d.yaml"), "team-a: team-a\n");

        for (Path bad : List.of(noGrant, twice, namespacesWithoutTenant, notAList)) {
            assertThatThrownBy(() -> GroupMapping.load(bad))
                    .as(bad.toString())
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }
}
