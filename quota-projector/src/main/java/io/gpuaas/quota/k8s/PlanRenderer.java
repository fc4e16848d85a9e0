package io.gpuaas.quota.k8s;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.gpuaas.quota.model.BorrowQueue;
import io.gpuaas.quota.model.DesiredQuota;
import io.gpuaas.quota.model.FlavorResource;
import io.gpuaas.quota.model.TenantQueue;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
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
    private final PerTenant<TenantQueue> clusterQueues = new PerTenant<>();
    private final PerTenant<TenantQueue> queues = new PerTenant<>();
    private final PerTenant<BorrowQueue> borrowers = new PerTenant<>();
    private Map<ObjectRef, HasMetadata> priorityClass = Map.of();
    private SortedSet<FlavorResource> borrowCells;
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
        // Over-budget tenants' borrow-only queues list the borrowable cells; the priority class exists with them.
        boolean borrowCellsChanged = !quota.borrowCells().equals(borrowCells);
        if (borrowCellsChanged) {
            Map<ObjectRef, HasMetadata> next =
                    manifests.renderBorrowing(quota.withBorrowers(quota.borrowCells(), new java.util.TreeMap<>()));
            changed.addAll(next.keySet());
            changed.addAll(priorityClass.keySet());
            priorityClass = next;
            borrowCells = quota.borrowCells();
        }
        desired.putAll(priorityClass);
        borrowers.render(
                quota.borrowers(),
                borrowCellsChanged,
                b -> manifests.renderBorrower(quota.borrowCells(), b),
                changed,
                desired);
        cohortNominal = quota.cohortNominal();
        cells = quota.cells();
        return new Rendered(desired, changed);
    }

    /** One kind of per-tenant objects, kept from the previous plan while the tenant's queue is unchanged. */
    private static final class PerTenant<T> {
        private Map<String, T> tenants = Map.of();
        private Map<String, Map<ObjectRef, HasMetadata>> byTenant = Map.of();

        void render(
                Map<String, T> next,
                boolean all,
                Function<T, Map<ObjectRef, HasMetadata>> renderer,
                Set<ObjectRef> changed,
                Map<ObjectRef, HasMetadata> desired) {
            Map<String, Map<ObjectRef, HasMetadata>> nextByTenant = HashMap.newHashMap(next.size());
            for (Map.Entry<String, T> entry : next.entrySet()) {
                String id = entry.getKey();
                T tenant = entry.getValue();
                Map<ObjectRef, HasMetadata> previous = byTenant.get(id);
                if (!all && previous != null && tenant.equals(tenants.get(id))) {
                    nextByTenant.put(id, previous);
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
                nextByTenant.put(id, objects);
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
