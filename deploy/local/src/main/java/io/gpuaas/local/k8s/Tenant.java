package io.gpuaas.local.k8s;

import java.util.ArrayList;
import java.util.List;

/**
 * A demo tenant and the namespaces it owns.
 *
 * @param name       tenant name, the {@code gpuaas.io/tenant} label value
 * @param namespaces namespaces labelled with it
 */
public record Tenant(String name, List<String> namespaces) {

    public Tenant {
        namespaces = List.copyOf(namespaces);
    }

    /** team-a (team-a, team-a-dev), team-b (team-b), then team-c, team-d, … with one namespace each. */
    public static List<Tenant> demo(int count) {
        if (count < 2) {
            throw new IllegalArgumentException("--tenants must be at least 2 (team-a and team-b), got " + count);
        }
        List<Tenant> tenants = new ArrayList<>();
        tenants.add(new Tenant("team-a", List.of("team-a", "team-a-dev")));
        tenants.add(new Tenant("team-b", List.of("team-b")));
        for (int i = 2; i < count; i++) {
            String name = i < 26 ? "team-" + (char) ('a' + i) : "team-" + i;
            tenants.add(new Tenant(name, List.of(name)));
        }
        return tenants;
    }
}
