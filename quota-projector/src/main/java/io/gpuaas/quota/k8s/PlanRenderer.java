package io.gpuaas.quota.k8s;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.gpuaas.quota.model.DesiredQuota;
import io.gpuaas.quota.model.FlavorResource;
import io.gpuaas.quota.model.TenantQueue;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeSet;

/**
 * Renders successive plans and tells which objects changed. A boundary touches one or a few tenants, so tenants
 * whose {@link TenantQueue} is unchanged keep their rendered objects: at 1,000 tenants and dozens of boundaries a
 * second, re-rendering and comparing 3,000 objects per plan would eat the CPU the writers need. What changed is
 * judged on the plan (a tenant's queue, the cohort's quota), not on the rendered objects.
 */
final class PlanRenderer {

    /** The desired objects of a plan and the keys that differ from the previous plan's. */
    record Rendered(Map<ObjectRef, HasMetadata> desired, Set<ObjectRef> changed) {}

    private final KueueManifests manifests;
    private Map<String, TenantQueue> tenants = Map.of();
    private Map<String, Map<ObjectRef, HasMetadata>> byTenant = Map.of();
    private Map<ObjectRef, HasMetadata> cohort = Map.of();
    private SortedMap<FlavorResource, Long> cohortNominal;
    private SortedMap<FlavorResource, Long> cells;

    PlanRenderer(KueueManifests manifests) {
        this.manifests = manifests;
    }

    Rendered render(DesiredQuota quota) {
        Set<ObjectRef> changed = new TreeSet<>();
        boolean cellsChanged = !quota.cells().equals(cells);
        if (cellsChanged || !quota.cohortNominal().equals(cohortNominal)) {
            Map<ObjectRef, HasMetadata> next = manifests.renderCohort(quota);
            changed.addAll(next.keySet());
            cohort = next;
        }
        Map<String, Map<ObjectRef, HasMetadata>> nextByTenant = new HashMap<>();
        for (TenantQueue tenant : quota.tenants().values()) {
            Map<ObjectRef, HasMetadata> previous = byTenant.get(tenant.tenant());
            if (!cellsChanged && previous != null && tenant.equals(tenants.get(tenant.tenant()))) {
                nextByTenant.put(tenant.tenant(), previous);
                continue;
            }
            Map<ObjectRef, HasMetadata> objects = manifests.renderTenant(quota.cells(), tenant);
            changed.addAll(objects.keySet());
            if (previous != null) {
                previous.keySet().stream()
                        .filter(ref -> !objects.containsKey(ref))
                        .forEach(changed::add);
            }
            nextByTenant.put(tenant.tenant(), objects);
        }
        byTenant.forEach((tenant, objects) -> {
            if (!nextByTenant.containsKey(tenant)) {
                changed.addAll(objects.keySet());
            }
        });
        Map<ObjectRef, HasMetadata> desired = new HashMap<>(cohort);
        nextByTenant.values().forEach(desired::putAll);
        tenants = quota.tenants();
        byTenant = nextByTenant;
        cohortNominal = quota.cohortNominal();
        cells = quota.cells();
        return new Rendered(desired, changed);
    }
}
