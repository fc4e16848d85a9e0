package io.gpuaas.quota.model;

import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;

/**
 * What one tenant with at least one active booking gets: a ClusterQueue holding its booked units and a
 * LocalQueue in each of its namespaces.
 *
 * @param tenant       the tenant id
 * @param clusterQueue the ClusterQueue name, {@code gpuaas-<tenant>}
 * @param nominal      active booked units per flavor and resource (only cells with units &gt; 0)
 * @param namespaces   the tenant's namespaces: labelled ones plus those its active bookings name
 */
public record TenantQueue(
        String tenant, String clusterQueue, SortedMap<FlavorResource, Long> nominal, SortedSet<String> namespaces) {

    public long nominal(FlavorResource cell) {
        return nominal.getOrDefault(cell, 0L);
    }

    public Map<FlavorResource, Long> bookedCells() {
        return nominal;
    }
}
