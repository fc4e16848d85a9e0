package io.gpuaas.quota.model;

import io.gpuaas.events.quota.QueueState;
import io.gpuaas.events.workload.WorkloadEvent.PodSet;
import io.gpuaas.events.workload.WorkloadEvent.PodSetAdmission;
import io.gpuaas.events.workload.WorkloadEvent.WorkloadObserved;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;

/**
 * The state of one Kueue queue from the Workloads that target it. Pure: the caller gathers the Workloads (from
 * the informer cache) and the queue's nominal quota. Kueue itself is not asked, so the same numbers come out
 * against a real cluster and against the local stand-in.
 */
public final class QueueStateProjection {

    private QueueStateProjection() {}

    /** Who the queue is. */
    public record QueueId(
            QueueState.Kind kind,
            String clusterQueue,
            String namespace,
            String localQueue,
            String cohort,
            String tenant) {}

    public static QueueState project(
            QueueId id, Map<FlavorResource, BigDecimal> nominal, Collection<WorkloadObserved> workloads, Instant now) {
        Map<FlavorResource, BigDecimal> usage = new TreeMap<>();
        Map<String, BigDecimal> demand = new TreeMap<>();
        int admitted = 0;
        int pendingActive = 0;
        int inadmissible = 0;
        for (WorkloadObserved workload : workloads) {
            if (workload.finished()) {
                continue;
            }
            if (holdsQuota(workload)) {
                admitted++;
                addUsage(workload, usage);
            } else if (workload.active()) {
                if (inadmissible(workload)) {
                    inadmissible++;
                } else {
                    pendingActive++;
                }
                addDemand(workload, demand);
            }
        }
        Map<FlavorResource, BigDecimal> borrowed = new TreeMap<>();
        if (id.kind() == QueueState.Kind.CLUSTER_QUEUE) {
            usage.forEach((cell, used) -> {
                BigDecimal over = used.subtract(nominal.getOrDefault(cell, BigDecimal.ZERO));
                if (over.signum() > 0) {
                    borrowed.put(cell, over);
                }
            });
        }
        Map<FlavorResource, BigDecimal> shownNominal = id.kind() == QueueState.Kind.CLUSTER_QUEUE ? nominal : Map.of();
        return new QueueState(
                id.kind(),
                id.clusterQueue(),
                id.namespace(),
                id.localQueue(),
                id.cohort(),
                id.tenant(),
                nest(shownNominal),
                nest(borrowed),
                nest(usage),
                pendingActive,
                inadmissible,
                admitted,
                demand,
                now);
    }

    static boolean holdsQuota(WorkloadObserved workload) {
        return workload.hasTrue(KueueConditions.QUOTA_RESERVED) || workload.hasTrue(KueueConditions.ADMITTED);
    }

    /** Kueue marks a Workload it cannot consider (missing or stopped queue) with reason Inadmissible. */
    static boolean inadmissible(WorkloadObserved workload) {
        return workload.conditions().stream()
                .anyMatch(c -> KueueConditions.QUOTA_RESERVED.equals(c.type())
                        && KueueConditions.FALSE.equals(c.status())
                        && KueueConditions.INADMISSIBLE.equals(c.reason()));
    }

    private static void addUsage(WorkloadObserved workload, Map<FlavorResource, BigDecimal> usage) {
        for (PodSetAdmission admission : workload.admission()) {
            admission.resourceUsage().forEach((resource, quantity) -> {
                String flavor = admission.flavors().get(resource);
                if (flavor != null && quantity != null) {
                    usage.merge(new FlavorResource(flavor, resource), Quantities.parse(quantity), BigDecimal::add);
                }
            });
        }
    }

    private static void addDemand(WorkloadObserved workload, Map<String, BigDecimal> demand) {
        for (PodSet podSet : workload.podSets()) {
            podSet.requests()
                    .forEach((resource, quantity) -> demand.merge(
                            resource,
                            Quantities.parse(quantity).multiply(BigDecimal.valueOf(podSet.count())),
                            BigDecimal::add));
        }
    }

    private static Map<String, Map<String, BigDecimal>> nest(Map<FlavorResource, BigDecimal> cells) {
        Map<String, Map<String, BigDecimal>> nested = new TreeMap<>();
        cells.forEach((cell, value) ->
                nested.computeIfAbsent(cell.flavor(), f -> new TreeMap<>()).put(cell.resource(), value));
        return nested;
    }

    /** Equality that ignores {@link QueueState#time()}: a state is only republished when something else changed. */
    public static boolean sameState(QueueState a, QueueState b) {
        return a != null && b != null && withTime(a, Instant.EPOCH).equals(withTime(b, Instant.EPOCH));
    }

    private static QueueState withTime(QueueState s, Instant t) {
        return new QueueState(
                s.kind(),
                s.clusterQueue(),
                s.namespace(),
                s.localQueue(),
                s.cohort(),
                s.tenant(),
                s.nominal(),
                s.borrowed(),
                s.admittedUsage(),
                s.pendingActive(),
                s.pendingInadmissible(),
                s.admittedWorkloads(),
                s.pendingDemand(),
                t);
    }
}
