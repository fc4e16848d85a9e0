package io.gpuaas.local.kueue;

import java.util.List;
import java.util.Map;

/**
 * The outcome of trying to admit one Workload.
 */
public sealed interface Admission {

    /**
     * Admitted: the flavor and usage per pod set, as {@code status.admission.podSetAssignments} spells them.
     *
     * @param clusterQueue ClusterQueue the quota is reserved in
     * @param podSets      per pod set: name, count, flavor per resource, total usage per resource
     */
    record Admitted(String clusterQueue, List<PodSetAssignment> podSets) implements Admission {}

    /**
     * Not admitted now, with the reason Kueue would give in the QuotaReserved condition.
     *
     * @param reason  condition reason ({@code Pending} or {@code Inadmissible})
     * @param message human-readable explanation
     */
    record Pending(String reason, String message) implements Admission {}

    /**
     * @param name          pod set name
     * @param count         pods
     * @param flavors       flavor per resource
     * @param resourceUsage total units per resource
     */
    record PodSetAssignment(String name, int count, Map<String, String> flavors, Map<String, Long> resourceUsage) {}
}
