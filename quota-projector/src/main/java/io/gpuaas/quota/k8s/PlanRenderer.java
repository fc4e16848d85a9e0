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
import java.util.function.Function;

/**
 * Renders successive plans and tells which objects changed. A boundary touches one or a few tenants, so tenants
 * whose {@link TenantQueue} is unchanged keep their rendered objects: at 1,000 tenants and dozens of boundaries a
 * second, re-rendering and comparing 3,000 objects per plan would eat the CPU the writers need. What changed is
 * judged on the plan (a tenant's queue, the cohort's quota), not on the rendered objects. A tenant's ClusterQueue and
 * its LocalQueues and HardwareProfiles are judged apart: with a queue lead the latter exist before the window, so at
 * the start only the ClusterQueue (and the Cohort) changes.
 */
final class PlanRenderer {

    /** The desired objects of a plan and the keys that differ from the previous plan's. */
    record Rendered(Map<ObjectRef, HasMetadata> desired, Set<ObjectRef> changed) {}

    private final KueueManifests manifests;
    private final PerTenant clusterQueues = new PerTenant();
    private final PerTenant queues = new PerTenant();
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
        Map<ObjectRef, HasMetadata> desired = new HashMap<>(cohort);
        // A ClusterQueue lists every cell; LocalQueues and HardwareProfiles do not depend on the cells.
        clusterQueues.render(
                quota.tenants(), cellsChanged, t -> manifests.renderClusterQueue(quota.cells(), t), changed, desired);
        queues.render(quota.queues(), false, manifests::renderQueues, changed, desired);
        cohortNominal = quota.cohortNominal();
        cells = quota.cells();
        return new Rendered(desired, changed);
    }

    /** One kind of per-tenant objects, kept from the previous plan while the tenant's queue is unchanged. */
    private static final class PerTenant {
        private Map<String, TenantQueue> tenants = Map.of();
        private Map<String, Map<ObjectRef, HasMetadata>> byTenant = Map.of();

        void render(
                Map<String, TenantQueue> next,
                boolean all,
                Function<TenantQueue, Map<ObjectRef, HasMetadata>> renderer,
                Set<ObjectRef> changed,
                Map<ObjectRef, HasMetadata> desired) {
            Map<String, Map<ObjectRef, HasMetadata>> nextByTenant = HashMap.newHashMap(next.size());
            for (TenantQueue tenant : next.values()) {
                Map<ObjectRef, HasMetadata> previous = byTenant.get(tenant.tenant());
                if (!all && previous != null && tenant.equals(tenants.get(tenant.tenant()))) {
                    nextByTenant.put(tenant.tenant(), previous);
                    desired.putAll(previous);
                    continue;
                }
                Map<ObjectRef, HasMetadata> objects = renderer.apply(tenant);
                changed.addAll(objects.keySet());
                if (previous != null) {
                    previous.keySet().stream()
                            .filter(ref -> !objects.containsKey(ref))
                            .forEach(changed::add);
                }
                nextByTenant.put(tenant.tenant(), objects);
                desired.putAll(objects);
            }
            byTenant.forEach((tenant, objects) -> {
                if (!nextByTenant.containsKey(tenant)) {
                    changed.addAll(objects.keySet());
                }
            });
            tenants = next;
            byTenant = nextByTenant;
        }
    }
}
