package io.gpuaas.quota.k8s;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.gpuaas.quota.model.FlavorResource;
import java.math.BigDecimal;
import java.util.Collection;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Invariant 2 measured on the cluster rather than on the plan: per flavor and resource, the cohort's own nominal
 * quota plus the nominal quota of every gpuaas tenant ClusterQueue equals the physical capacity.
 */
public final class InvariantCheck {

    /** The sums for one cell. */
    public record Cell(long physical, BigDecimal cohort, BigDecimal tenants) {
        public boolean ok() {
            return cohort.add(tenants).compareTo(BigDecimal.valueOf(physical)) == 0;
        }
    }

    private InvariantCheck() {}

    public static SortedMap<FlavorResource, Cell> check(
            Map<FlavorResource, Long> capacity, HasMetadata cohort, Collection<? extends HasMetadata> tenantQueues) {
        Map<FlavorResource, BigDecimal> cohortQuota = cohort == null ? Map.of() : NominalQuota.of(cohort);
        Map<FlavorResource, BigDecimal> tenantSum = new TreeMap<>();
        tenantQueues.forEach(q -> NominalQuota.of(q).forEach((cell, v) -> tenantSum.merge(cell, v, BigDecimal::add)));
        SortedMap<FlavorResource, Cell> cells = new TreeMap<>();
        capacity.forEach((cell, physical) -> cells.put(
                cell,
                new Cell(
                        physical,
                        cohortQuota.getOrDefault(cell, BigDecimal.ZERO),
                        tenantSum.getOrDefault(cell, BigDecimal.ZERO))));
        return cells;
    }
}
