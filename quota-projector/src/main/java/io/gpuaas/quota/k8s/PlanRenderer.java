package io.gpuaas.quota.k8s;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.gpuaas.quota.model.DesiredQuota;
import io.gpuaas.quota.model.FlavorResource;
import io.gpuaas.quota.model.TenantQueue;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeSet;

/**
 * Renders successive plans and tells which objects changed. A boundary touches one or a few tenants, so tenants
 * whose {@link TenantQueue} is unchanged keep their rendered objects: at 1,000 tenants and dozens of boundaries a
 * second, re-rendering and comparing 3,000 objects per plan would eat the CPU the writers need.
 */
final class PlanRenderer {

    /** The desired objects of a plan and the keys that differ from the previous plan. */
    record Rendered(Map<ObjectRef, GenericKubernetesResource> desired, Set<ObjectRef> changed) {
    }

    private final KueueManifests manifests;
    private Map<String, TenantQueue> tenants = Map.of();
    private Map<String, Map<ObjectRef, GenericKubernetesResource>> byTenant = Map.of();
    private Map<ObjectRef, GenericKubernetesResource> cohort = Map.of();
    private SortedMap<FlavorResource, Long> cells;

    PlanRenderer(KueueManifests manifests) {
        this.manifests = manifests;
    }

    Rendered render(DesiredQuota quota) {
        Set<ObjectRef> changed = new TreeSet<>();
        boolean cellsChanged = !quota.cells().equals(cells);
        Map<ObjectRef, GenericKubernetesResource> nextCohort = manifests.renderCohort(quota);
        diff(cohort, nextCohort, changed);
        Map<String, Map<ObjectRef, GenericKubernetesResource>> nextByTenant = new HashMap<>();
        for (TenantQueue tenant : quota.tenants().values()) {
            Map<ObjectRef, GenericKubernetesResource> previous = byTenant.get(tenant.tenant());
            if (!cellsChanged && previous != null && tenant.equals(tenants.get(tenant.tenant()))) {
                nextByTenant.put(tenant.tenant(), previous);
                continue;
            }
            Map<ObjectRef, GenericKubernetesResource> objects = manifests.renderTenant(quota.cells(), tenant);
            diff(previous == null ? Map.of() : previous, objects, changed);
            nextByTenant.put(tenant.tenant(), objects);
        }
        byTenant.forEach((tenant, objects) -> {
            if (!nextByTenant.containsKey(tenant)) {
                changed.addAll(objects.keySet());
            }
        });
        Map<ObjectRef, GenericKubernetesResource> desired = new HashMap<>(nextCohort);
        nextByTenant.values().forEach(desired::putAll);
        tenants = quota.tenants();
        byTenant = nextByTenant;
        cohort = nextCohort;
        cells = quota.cells();
        return new Rendered(desired, changed);
    }

    private static void diff(Map<ObjectRef, GenericKubernetesResource> before, Map<ObjectRef, GenericKubernetesResource> after,
                             Set<ObjectRef> changed) {
        after.forEach((ref, object) -> {
            if (!Objects.equals(object, before.get(ref))) {
                changed.add(ref);
            }
        });
        before.keySet().stream().filter(ref -> !after.containsKey(ref)).forEach(changed::add);
    }
}
