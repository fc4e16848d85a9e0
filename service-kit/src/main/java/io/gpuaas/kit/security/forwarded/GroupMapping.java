package io.gpuaas.kit.security.forwarded;

import io.micronaut.core.annotation.Nullable;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Which cluster groups make a user a member of which tenant, and which give roles. A user gets the tenant of the
 * one tenant group they are in, that entry's namespaces, and the roles of every group they are in. Never a silent
 * pick: in no mapped group, or in the groups of two tenants, the user is refused.
 *
 * <pre>
 * groups:
 *   - {group: team-a, tenant: team-a, namespaces: [team-a, team-a-dev]}
 *   - {group: gpuaas-admins, roles: [admin]}
 * </pre>
 */
public final class GroupMapping {

    /** One line of the file: a tenant group (tenant, namespaces defaulting to the tenant) or a role group. */
    public record Entry(String group, @Nullable String tenant, List<String> namespaces, List<String> roles) {
        public Entry {
            if (group == null || group.isBlank()) {
                throw new IllegalArgumentException("an entry without a group");
            }
            if ((tenant == null || tenant.isBlank()) && (roles == null || roles.isEmpty())) {
                throw new IllegalArgumentException("group " + group + " gives neither a tenant nor roles");
            }
            if ((tenant == null || tenant.isBlank()) && namespaces != null && !namespaces.isEmpty()) {
                throw new IllegalArgumentException("group " + group + " lists namespaces but no tenant");
            }
            tenant = tenant == null || tenant.isBlank() ? null : tenant;
            namespaces = tenant == null
                    ? List.of()
                    : namespaces == null || namespaces.isEmpty() ? List.of(tenant) : List.copyOf(namespaces);
            roles = roles == null ? List.of() : List.copyOf(roles);
        }
    }

    /** What the groups of one user come to. */
    public sealed interface Resolution {}

    /** A gpuaas identity: a tenant (null for a role-only user such as an admin), its namespaces, roles. */
    public record Mapped(@Nullable String tenant, List<String> namespaces, Set<String> roles) implements Resolution {}

    /** In no group of the file. */
    public record Unmapped() implements Resolution {}

    /** In the groups of more than one tenant. */
    public record Ambiguous(Set<String> tenants) implements Resolution {}

    private final List<Entry> entries;

    public GroupMapping(List<Entry> entries) {
        Set<String> seen = new HashSet<>();
        for (Entry entry : entries) {
            if (!seen.add(entry.group())) {
                throw new IllegalArgumentException("group " + entry.group() + " is mapped twice");
            }
        }
        this.entries = List.copyOf(entries);
    }

    public Resolution resolve(Collection<String> groups) {
        List<Entry> matched =
                entries.stream().filter(e -> groups.contains(e.group())).toList();
        if (matched.isEmpty()) {
            return new Unmapped();
        }
        Set<String> tenants = new TreeSet<>();
        Set<String> namespaces = new LinkedHashSet<>();
        Set<String> roles = new TreeSet<>();
        for (Entry entry : matched) {
            if (entry.tenant() != null) {
                tenants.add(entry.tenant());
                namespaces.addAll(entry.namespaces());
            }
            roles.addAll(entry.roles());
        }
        if (tenants.size() > 1) {
            return new Ambiguous(tenants);
        }
        String tenant = tenants.isEmpty() ? null : tenants.iterator().next();
        return new Mapped(tenant, List.copyOf(namespaces), roles);
    }

    public int size() {
        return entries.size();
    }

    /** Reads the YAML file; a malformed one is refused whole, so a typo never grants or drops a team silently. */
    public static GroupMapping load(Path file) throws IOException {
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            Object root = new Yaml(new SafeConstructor(new LoaderOptions())).load(reader);
            if (!(root instanceof Map<?, ?> map) || !(map.get("groups") instanceof List<?> list)) {
                throw new IllegalArgumentException(file + ": expected a top-level 'groups' list");
            }
            List<Entry> entries = new ArrayList<>();
            for (Object item : list) {
                if (!(item instanceof Map<?, ?> fields)) {
                    throw new IllegalArgumentException(file + ": every entry of 'groups' is a map");
                }
                entries.add(new Entry(
                        text(fields.get("group")),
                        text(fields.get("tenant")),
                        strings(fields.get("namespaces")),
                        strings(fields.get("roles"))));
            }
            return new GroupMapping(entries);
        }
    }

    private static @Nullable String text(@Nullable Object value) {
        return value == null ? null : value.toString();
    }

    private static List<String> strings(@Nullable Object value) {
        if (value == null) {
            return List.of();
        }
        if (!(value instanceof List<?> list)) {
            throw new IllegalArgumentException("expected a list, got " + value);
        }
        return list.stream().map(Object::toString).toList();
    }
}
