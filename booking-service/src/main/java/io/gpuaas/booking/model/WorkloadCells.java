package io.gpuaas.booking.model;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.events.workload.WorkloadEvent;
import io.gpuaas.events.workload.WorkloadEvent.FeedWatermark;
import io.gpuaas.events.workload.WorkloadEvent.PodSet;
import io.gpuaas.events.workload.WorkloadEvent.PodSetAdmission;
import io.gpuaas.events.workload.WorkloadEvent.WorkloadDeleted;
import io.gpuaas.events.workload.WorkloadEvent.WorkloadObserved;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Where a Workload counts for the no-show rule: the cells {@code <scope>|<flavor>|<resource>} it occupies while it is
 * pending or admitted. A pending Workload counts in its namespace ({@code ns/<namespace>}) on every pool resource it
 * requests, with any flavor ({@value #ANY_FLAVOR}: Kueue has not chosen one yet); an admitted one on the flavor and
 * resource it was admitted with, in its namespace and in its ClusterQueue ({@code cq/<clusterQueue>}). A booking looks
 * at its own namespace and at its tenant's ClusterQueue {@code gpuaas-<tenant>} (quota-projector's name; it selects
 * exactly the tenant's namespaces), so a Workload the tenant runs in another of its namespaces counts once Kueue
 * admits it there. Only the resources of the pool catalog are kept (CPU and memory say nothing about a GPU booking).
 */
public final class WorkloadCells {

    /** The flavor of a pending Workload's cells: Kueue has not assigned one. */
    public static final String ANY_FLAVOR = "*";

    /** quota-projector names a tenant's ClusterQueue {@code gpuaas-<tenant>} (DESIGN.md, Kubernetes objects). */
    static final String TENANT_QUEUE_PREFIX = "gpuaas-";

    private final Set<String> poolResources;

    /** Cells over the resources of {@code pools}. */
    public WorkloadCells(PoolCatalog pools) {
        this.poolResources = pools.pools().stream().map(Pool::resource).collect(Collectors.toUnmodifiableSet());
    }

    /**
     * The cells the Workload counts in after {@code event}: none once it is finished, deactivated or deleted, or when
     * it asks for no pool resource (a feed watermark is no Workload: none).
     */
    public Set<String> of(WorkloadEvent event) {
        return switch (event) {
            case WorkloadDeleted deleted -> Set.of();
            case FeedWatermark mark -> Set.of();
            case WorkloadObserved observed -> observed.finished() || !observed.active() ? Set.of() : cells(observed);
        };
    }

    /** The cells a Workload of the booking's tenant on the booking's pool occupies: what the booking looks at. */
    public static List<String> ofBooking(Booking booking) {
        String namespace = "ns/" + booking.namespace();
        return List.of(
                cell(namespace, booking.flavor(), booking.resource()),
                cell(namespace, ANY_FLAVOR, booking.resource()),
                cell("cq/" + TENANT_QUEUE_PREFIX + booking.tenant(), booking.flavor(), booking.resource()));
    }

    private Set<String> cells(WorkloadObserved w) {
        Set<String> cells = new TreeSet<>();
        String namespace = "ns/" + w.namespace();
        if (w.admission() != null && !w.admission().isEmpty()) {
            for (PodSetAdmission admitted : w.admission()) {
                for (Map.Entry<String, String> flavor :
                        nullSafe(admitted.flavors()).entrySet()) {
                    String resource = flavor.getKey();
                    if (poolResources.contains(resource)
                            && !zero(nullSafe(admitted.resourceUsage()).get(resource))) {
                        cells.add(cell(namespace, flavor.getValue(), resource));
                        if (w.clusterQueue() != null) {
                            cells.add(cell("cq/" + w.clusterQueue(), flavor.getValue(), resource));
                        }
                    }
                }
            }
            return cells;
        }
        for (PodSet podSet : w.podSets() == null ? List.<PodSet>of() : w.podSets()) {
            for (Map.Entry<String, String> request : nullSafe(podSet.requests()).entrySet()) {
                if (podSet.count() > 0 && poolResources.contains(request.getKey()) && !zero(request.getValue())) {
                    cells.add(cell(namespace, ANY_FLAVOR, request.getKey()));
                }
            }
        }
        return cells;
    }

    static String cell(String scope, String flavor, String resource) {
        return scope + "|" + flavor + "|" + resource;
    }

    /**
     * A Kubernetes quantity of nothing ({@code 0}, {@code 0m}, {@code 0.0}); an absent usage counts as something, so a
     * Workload admitted on the flavor is never overlooked.
     */
    private static boolean zero(String quantity) {
        return quantity != null && quantity.chars().filter(Character::isDigit).allMatch(c -> c == '0');
    }

    private static Map<String, String> nullSafe(Map<String, String> map) {
        return map == null ? Map.of() : map;
    }
}
