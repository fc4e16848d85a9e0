package io.gpuaas.quota.k8s;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.gpuaas.events.Labels;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/** Tenant to its namespaces, from the namespaces labelled {@code gpuaas.io/tenant=<tenant>}. */
public final class TenantNamespaces {

    private TenantNamespaces() {}

    public static Map<String, Set<String>> from(Collection<? extends HasMetadata> namespaces) {
        Map<String, Set<String>> byTenant = new TreeMap<>();
        for (HasMetadata namespace : namespaces) {
            String tenant = Ownership.label(namespace, Labels.TENANT);
            if (tenant != null && !tenant.isBlank()) {
                byTenant.computeIfAbsent(tenant, t -> new TreeSet<>())
                        .add(namespace.getMetadata().getName());
            }
        }
        return byTenant;
    }
}
