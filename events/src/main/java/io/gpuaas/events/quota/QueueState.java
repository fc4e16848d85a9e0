package io.gpuaas.events.quota;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Map;

/**
 * The state of one Kueue queue; the values of the compacted {@code gpuaas.quota-state} topic, keyed by
 * {@link #key()}. Amounts map flavor to resource to quantity (GPU counts are whole numbers).
 *
 * @param kind                   CLUSTER_QUEUE or LOCAL_QUEUE
 * @param clusterQueue           the ClusterQueue (for a LocalQueue, the one it points to)
 * @param namespace              the LocalQueue's namespace, null for a ClusterQueue
 * @param localQueue             the LocalQueue's name, null for a ClusterQueue
 * @param cohort                 the cohort of the ClusterQueue, may be null
 * @param tenant                 the tenant owning the queue, null for shared queues
 * @param nominal                nominal quota per flavor and resource (ClusterQueue only; empty for LocalQueues)
 * @param borrowed               quota borrowed from the cohort per flavor and resource
 * @param admittedUsage          usage of admitted workloads per flavor and resource
 * @param pendingActive          pending workloads that Kueue will try to admit
 * @param pendingInadmissible    pending workloads that cannot be admitted now
 * @param admittedWorkloads      admitted, unfinished workloads
 * @param pendingDemand          resource to total quantity requested by pending workloads
 * @param time                   when this state was computed
 */
public record QueueState(
        Kind kind,
        String clusterQueue,
        String namespace,
        String localQueue,
        String cohort,
        String tenant,
        Map<String, Map<String, BigDecimal>> nominal,
        Map<String, Map<String, BigDecimal>> borrowed,
        Map<String, Map<String, BigDecimal>> admittedUsage,
        int pendingActive,
        int pendingInadmissible,
        int admittedWorkloads,
        Map<String, BigDecimal> pendingDemand,
        Instant time)
        implements QueueStateEvent {

    /** Which kind of Kueue queue a state describes. */
    public enum Kind {
        /** A Kueue ClusterQueue (cluster-scoped, holds quota). */
        CLUSTER_QUEUE,
        /** A Kueue LocalQueue (namespaced, points to a ClusterQueue). */
        LOCAL_QUEUE
    }

    /** {@code cq/<clusterQueue>} or {@code lq/<namespace>/<localQueue>}. */
    public String key() {
        return kind == Kind.CLUSTER_QUEUE ? "cq/" + clusterQueue : "lq/" + namespace + "/" + localQueue;
    }

    /** All pending workloads, admissible or not. */
    public int pendingWorkloads() {
        return pendingActive + pendingInadmissible;
    }
}
