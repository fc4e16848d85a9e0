package io.gpuaas.quota.k8s;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.gpuaas.quota.model.DesiredQuota;
import io.gpuaas.quota.model.FlavorResource;
import io.gpuaas.quota.model.QuotaPlan;
import io.gpuaas.quota.model.TenantQueue;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One plan as the writers see it: the desired quota, its rendered objects, how it was rendered, and its generation
 * (plans of one term count up, so a reconcile knows which plan it applied).
 */
record PlanSnapshot(
        long generation, DesiredQuota quota, Map<ObjectRef, HasMetadata> desired, KueueManifests manifests) {

    /** The reference of the shared Cohort. */
    ObjectRef cohort() {
        return new ObjectRef(Kind.COHORT, null, manifests.settings().cohortName());
    }

    /** Physical units per cell. */
    SortedMap<FlavorResource, Long> capacity() {
        return quota.cells();
    }

    /**
     * The nominal quota this plan wants {@code ref} (the Cohort or a ClusterQueue) to hold in every cell: 0 for a
     * queue the plan does not want (it drains to 0 and goes).
     */
    SortedMap<FlavorResource, Long> nominal(ObjectRef ref) {
        if (ref.equals(cohort())) {
            return quota.cohortNominal();
        }
        TenantQueue tenant = tenantOf(ref);
        SortedMap<FlavorResource, Long> cells = new TreeMap<>();
        quota.cells().keySet().forEach(cell -> cells.put(cell, tenant == null ? 0 : tenant.nominal(cell)));
        return cells;
    }

    /** What this plan wants of {@code ref} in {@code cell}. */
    long nominal(ObjectRef ref, FlavorResource cell) {
        if (ref.equals(cohort())) {
            return quota.cohortNominal().getOrDefault(cell, 0L);
        }
        TenantQueue tenant = tenantOf(ref);
        return tenant == null ? 0 : tenant.nominal(cell);
    }

    private TenantQueue tenantOf(ObjectRef ref) {
        if (ref.kind() != Kind.CLUSTER_QUEUE || !ref.name().startsWith(QuotaPlan.CLUSTER_QUEUE_PREFIX)) {
            return null;
        }
        return quota.tenants().get(ref.name().substring(QuotaPlan.CLUSTER_QUEUE_PREFIX.length()));
    }

    /** {@code ref}'s desired object with {@code cells} as its nominal quota (a partial grant of the budget). */
    HasMetadata render(ObjectRef ref, SortedMap<FlavorResource, Long> cells) {
        if (ref.equals(cohort())) {
            return manifests.cohort(cells);
        }
        TenantQueue tenant = tenantOf(ref);
        // A borrow-only queue holds no quota: there is no partial grant of nothing.
        return tenant == null ? desired.get(ref) : manifests.clusterQueue(tenant.tenant(), cells, "None");
    }
}
